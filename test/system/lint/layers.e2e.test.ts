/**
 * The import rules between the rooms of src/ (.dependency-cruiser.cjs), as `npm run lint` checks them: the real tree
 * keeps every rule, and each rule bites on a scratch tree that breaks it (so a rule that stopped matching would fail
 * here rather than pass silently).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';

const ROOT = packageRoot();
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

/** Runs dependency-cruiser over `dir`/src with the project's rules and returns what it reported. */
function cruise(dir: string): Violation[] {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.ok(run.stdout.length > 0, `depcruise printed nothing: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations;
}

/** A scratch project whose src/ holds `files` (path → content), with a tsconfig like the real one. */
function scratch(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-layers-'));
  const tsconfig = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('the rooms of src/ and the imports allowed between them', () => {
  test('the real tree keeps every rule', () => {
    const violations = cruise(ROOT);
    assert.deepEqual(
      violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`),
      [],
    );
  });

  const cases: ReadonlyArray<{ rule: string; files: Record<string, string>; from: string }> = [
    {
      rule: 'no-cycles',
      files: {
        'src/mcp/a.ts': "import type { B } from './b.js';\nexport type A = B[];\n",
        'src/mcp/b.ts': "import type { A } from './a.js';\nexport interface B { readonly a?: A }\n",
      },
      from: 'src/mcp/a.ts',
    },
    {
      rule: 'pure-core-and-guided',
      files: { 'src/guided/read.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n" },
      from: 'src/guided/read.ts',
    },
    {
      rule: 'runs-below-tools-and-mcp',
      files: {
        'src/tools/index.ts': 'export const tool = 1;\n',
        'src/runs/engine.ts': "import { tool } from '../tools/index.js';\nexport const engine = tool;\n",
      },
      from: 'src/runs/engine.ts',
    },
    {
      rule: 'only-mcp-knows-mcp',
      files: {
        'src/tools/wire.ts': "import type { Tool } from '@modelcontextprotocol/server';\nexport type Wire = Tool;\n",
      },
      from: 'src/tools/wire.ts',
    },
    {
      rule: 'only-cli-wires-admin-and-console',
      files: {
        'src/admin/index.ts': 'export const admin = 1;\n',
        'src/mcp/serve.ts': "import { admin } from '../admin/index.js';\nexport const serve = admin;\n",
      },
      from: 'src/mcp/serve.ts',
    },
    {
      rule: 'admin-and-console-apart',
      files: {
        'src/console/index.ts': 'export const page = 1;\n',
        'src/admin/routes.ts': "import { page } from '../console/index.js';\nexport const routes = page;\n",
      },
      from: 'src/admin/routes.ts',
    },
    {
      rule: 'rooms-through-their-index',
      files: {
        'src/registry/index.ts': "export { model } from './private.js';\n",
        'src/registry/private.ts': 'export const model = 1;\n',
        'src/guided/engine.ts': "import { model } from '../registry/private.js';\nexport const engine = model;\n",
      },
      from: 'src/guided/engine.ts',
    },
  ];
  for (const { rule, files, from } of cases) {
    test(`${rule} refuses a tree that breaks it`, () => {
      const dir = scratch(files);
      try {
        const found = cruise(dir).filter((v) => v.rule.name === rule);
        assert.ok(
          found.some((v) => v.from === from),
          `${rule} did not report ${from}: ${JSON.stringify(found)}`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('core modules and the cli are the two exceptions to entering a room through its index', () => {
    const dir = scratch({
      'src/core/json.ts': 'export const isJson = true;\n',
      'src/registry/index.ts': 'export const model = 1;\n',
      'src/registry/use.ts': "import { isJson } from '../core/json.js';\nexport const use = isJson;\n",
      'src/mcp/index.ts': "export { http } from './http.js';\n",
      'src/mcp/http.ts': 'export const http = 1;\n',
      'src/cli/serve.ts': "import { http } from '../mcp/http.js';\nexport const serve = http;\n",
    });
    try {
      assert.deepEqual(cruise(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
