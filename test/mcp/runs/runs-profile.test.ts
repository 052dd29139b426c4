/** The runs profile: the seven run tools as MCP tools, scoped to the caller's session (spec: run-tools.md). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { createRunsProfileFactory } from '../../../src/mcp/index.js';
import type { RunsProfileFactory } from '../../../src/mcp/index.js';
import { SqliteRunStore, Supervisor } from '../../../src/runs/index.js';
import { testCatalog } from '../../runs/fixtures/test-flows.js';
import { createRunTools } from '../../../src/tools/index.js';
import { callTool, connect } from '../support/connect.js';

const SEVEN = [
  'workflow_definition_list',
  'workflow_run_cancel',
  'workflow_run_get',
  'workflow_run_history',
  'workflow_run_list',
  'workflow_run_resume',
  'workflow_run_start',
];

describe('runs profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-mcp-runs-'));
  const store = new SqliteRunStore(join(dir, 'runs.db'));
  const catalog = testCatalog();
  let supervisor: Supervisor;
  let factory: RunsProfileFactory;

  before(async () => {
    await store.open();
    supervisor = new Supervisor({ store, catalog });
    await supervisor.start();
    factory = createRunsProfileFactory({
      toolsFor: (sessionId) =>
        createRunTools({ sessionId, catalog, store, supervisor: supervisor.forSession(sessionId) }),
    });
  });
  after(async () => {
    await supervisor.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('serves exactly the seven run tools with closed input schemas and output schemas', async () => {
    const conn = await connect(factory.forSession('session-a'));
    try {
      const { tools } = await conn.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), SEVEN);
      for (const tool of tools) {
        assert.equal((tool.inputSchema as JsonObject)['additionalProperties'], false);
        assert.equal(tool.outputSchema?.type, 'object');
        assert.ok(tool.annotations !== undefined);
      }
    } finally {
      await conn.close();
    }
  });

  test('starts a run in one session; another session cannot see it', async () => {
    const a = await connect(factory.forSession('session-a'));
    const b = await connect(factory.forSession('session-b'));
    try {
      const started = await callTool(a.client, 'workflow_run_start', {
        definition_name: 'counter_flow',
        definition_version: 'v1',
        input: { count: 1 },
      });
      assert.equal(started.isError, false, JSON.stringify(started.value));
      const runId = started.value['run_id'] as string;
      assert.match(runId, /^[0-9a-f-]{36}$/);
      const own = await callTool(a.client, 'workflow_run_get', { run_id: runId });
      assert.equal(own.isError, false);
      assert.equal(own.value['run_id'], runId);
      const other = await callTool(b.client, 'workflow_run_get', { run_id: runId });
      assert.equal(other.isError, true);
      assert.equal((other.value['error'] as JsonObject)['code'], 'not_found');
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a refused call is a tool error with the run-tool code', async () => {
    const conn = await connect(factory.forSession('session-a'));
    try {
      const bad = await callTool(conn.client, 'workflow_run_get', { run_id: 'not-a-uuid' });
      assert.equal(bad.isError, true);
      assert.equal((bad.value['error'] as JsonObject)['code'], 'invalid_arguments');
      const unknown = await callTool(conn.client, 'workflow_run_start', {
        definition_name: 'no_such_flow',
        definition_version: 'v1',
        input: {},
      });
      assert.equal(unknown.isError, true);
      assert.equal((unknown.value['error'] as JsonObject)['code'], 'unknown_definition');
    } finally {
      await conn.close();
    }
  });
});
