import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';

// Imports the package by its own name, the way a consumer does: Node resolves "rimthan/..." through the "exports"
// map of package.json (self-reference), so a missing or wrong entry fails here rather than in a user's project.
const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  bin: Record<string, string>;
};

describe('package surface', () => {
  test('the exports map is explicit: no wildcard entries', () => {
    assert.ok(Object.keys(manifest.exports).every((key) => !key.includes('*')));
  });

  test('every public entry point imports by package name and exposes its documented API', async () => {
    // A computed specifier keeps TypeScript from resolving the package's own (not yet built) declarations.
    const load = (specifier: string) => import(specifier) as Promise<Record<string, unknown>>;
    const root = await load('rimthan');
    const core = await load('rimthan/core');
    const registry = await load('rimthan/registry');
    const guided = await load('rimthan/guided');
    const runs = await load('rimthan/runs');
    const stores = await load('rimthan/runs/store');
    const tools = await load('rimthan/tools');
    const aiSdk = await load('rimthan/tools/ai-sdk');
    const mcp = await load('rimthan/mcp');
    const expectations: [Record<string, unknown>, string[]][] = [
      [core, ['canonicalJson', 'parseStrictJson', 'TokenSigner', 'KeyRing', 'SchemaCompiler', 'digestJson']],
      [
        registry,
        ['buildRelease', 'verifyReleaseFile', 'FolderReleaseStore', 'workflowMermaid', 'packagedReleaseStore'],
      ],
      [guided, ['createGuidedEngine', 'createReleaseScope', 'checkpointRelease']],
      [runs, ['defineFlow', 'FlowCatalog', 'Supervisor', 'exampleCatalog']],
      [stores, ['SqliteRunStore', 'PostgresRunStore', 'openRunStore']],
      [tools, ['createRunTools', 'toOpenAiFunctionTools', 'dispatchOpenAiToolCall']],
      [aiSdk, ['toAiSdkTools']],
      [mcp, ['createMcpServer']],
    ];
    for (const [module, names] of expectations) {
      for (const name of names) assert.equal(typeof module[name], 'function', name);
    }
    assert.equal((guided['GUIDED_TOOL_CONTRACTS'] as unknown[]).length, 4);
    assert.equal(root['createGuidedEngine'], guided['createGuidedEngine']);
    assert.equal(root['createRunTools'], tools['createRunTools']);
  });

  test('the bin points at the built CLI entry', () => {
    assert.equal(manifest.bin['rimthan'], 'dist/src/cli/main.js');
  });
});
