/** `rimthan serve --profile runs` over stdio, with flows loaded from a module (spec: run-tools.md). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonObject } from '../../src/core/index.js';
import { runCli } from '../../src/cli/run.js';
import { callTool } from '../mcp/support/connect.js';
import { captureIo } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const RUNS = pathToFileURL(fileURLToPath(new URL('../../src/runs/index.js', import.meta.url))).href;

const FLOWS_MODULE = `import { defineFlow } from ${JSON.stringify(RUNS)};
export const flows = [
  defineFlow({
    name: 'greeting_flow',
    version: 'v1',
    description: 'Says hello once.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 64 } },
    },
    graph: { start: 'greet', vertices: { greet: { label: 'Greet', run: async () => ({ greeted: true }) } } },
  }),
];
`;

describe('rimthan serve --profile runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-serve-runs-'));
  const flows = join(work, 'flows.mjs');
  writeFileSync(flows, FLOWS_MODULE);
  const store = `sqlite:${join(work, 'runs.db')}`;
  after(() => rmSync(work, { recursive: true, force: true }));

  test('serves the seven run tools over stdio for the configured session, with flows from --flows', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve', '--profile', 'runs', '--store', store, '--flows', flows, '--session', 'ops'],
      env: { PATH: process.env['PATH'] ?? '', HOME: work },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'runs-stdio', version: '1.0.0' });
    await client.connect(transport);
    let runId: string;
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 7);
      const listed = await callTool(client, 'workflow_definition_list', {});
      const names = (listed.value['definitions'] as JsonObject[]).map((d) => d['name']);
      assert.deepEqual(names, ['greeting_flow']);
      const started = await callTool(client, 'workflow_run_start', {
        definition_name: 'greeting_flow',
        definition_version: 'v1',
        input: { name: 'Ada' },
      });
      assert.equal(started.isError, false, JSON.stringify(started.value));
      runId = started.value['run_id'] as string;
    } finally {
      await client.close();
    }
    // The operator CLI sees the run in the same session and store.
    const io = captureIo(work);
    assert.equal(await runCli(['runs', 'get', runId, '--store', store, '--session', 'ops', '--flows', flows], io), 0);
    assert.equal((JSON.parse(io.stdout.join('\n')) as JsonObject)['run_id'], runId);
    const other = captureIo(work);
    assert.equal(
      await runCli(['runs', 'get', runId, '--store', store, '--session', 'guest', '--flows', flows], other),
      1,
    );
  });
});
