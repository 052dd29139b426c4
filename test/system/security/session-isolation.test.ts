/**
 * Runs are private to the caller (spec: run-tools-contract.md "workflow_run_get: unknown or other-session run →
 * not_found"). Over HTTP the session is the bearer token: two tokens are two sessions on one server, and the strict
 * argument rules hold end to end through the MCP layer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject } from '../../../src/core/index.js';
import { createMcpServer, createRunsProfileFactory, startHttpTransport } from '../../../src/mcp/index.js';
import type { HttpEndpoint } from '../../../src/mcp/index.js';
import { SqliteRunStore, Supervisor } from '../../../src/runs/index.js';
import { testCatalog } from '../../runs/fixtures/test-flows.js';
import { createRunTools } from '../../../src/tools/index.js';
import { callTool, valueOf } from '../../mcp/support/connect.js';
import { exchange, rpc } from './support.js';

const TOKEN_A = 'session-a-token-0123456789abcdef';
const TOKEN_B = 'session-b-token-0123456789abcdef';

function errorCode(value: JsonObject): unknown {
  return (value['error'] as JsonObject | undefined)?.['code'];
}

describe('session isolation over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-sec-sessions-'));
  const store = new SqliteRunStore(join(dir, 'runs.db'));
  const catalog = testCatalog();
  let supervisor: Supervisor;
  let endpoint: HttpEndpoint;
  const clients: Client[] = [];

  async function clientFor(token: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'isolation', version: '1' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  before(async () => {
    await store.open();
    supervisor = new Supervisor({ store, catalog });
    await supervisor.start();
    const factory = createRunsProfileFactory({
      toolsFor: (sessionId) =>
        createRunTools({ sessionId, catalog, store, supervisor: supervisor.forSession(sessionId) }),
    });
    endpoint = await startHttpTransport({
      port: 0,
      maxRequestBytes: 1024 * 1024,
      bearerTokens: [TOKEN_A, TOKEN_B],
      serverFor: (principal) => createMcpServer(factory.forSession(principal.id)),
    });
  });
  after(async () => {
    for (const c of clients) await c.close();
    await endpoint.close();
    await supervisor.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two bearer tokens are two sessions: a run of one is not_found for the other, for every run tool', async () => {
    const a = await clientFor(TOKEN_A);
    const b = await clientFor(TOKEN_B);
    const started = await callTool(a, 'workflow_run_start', {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 1 },
    });
    assert.equal(started.isError, false, JSON.stringify(started.value));
    const runId = started.value['run_id'] as string;

    assert.equal((await callTool(a, 'workflow_run_get', { run_id: runId })).isError, false);
    const missing = await callTool(b, 'workflow_run_get', { run_id: '3f0b8a52-8d6e-4c1f-9a57-0c7e2f1b9d44' });
    for (const [name, args] of [
      ['workflow_run_get', { run_id: runId }],
      ['workflow_run_history', { run_id: runId }],
      ['workflow_run_cancel', { run_id: runId }],
      ['workflow_run_resume', { run_id: runId, resume: {} }],
    ] as const) {
      const other = await callTool(b, name, args);
      assert.equal(other.isError, true, name);
      assert.equal(errorCode(other.value), 'not_found', name);
      if (name === 'workflow_run_get') assert.deepEqual(other.value, missing.value, 'identical to a missing run');
    }
    const listed = await callTool(b, 'workflow_run_list', {});
    assert.deepEqual(listed.value['runs'], []);
    const parent = await callTool(b, 'workflow_run_start', {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 1 },
      parent_run_id: runId,
    });
    assert.equal(errorCode(parent.value), 'not_found', 'another session cannot adopt the run as a parent');
    const still = await callTool(a, 'workflow_run_get', { run_id: runId });
    assert.notEqual(still.value['run_status'], 'cancelled', 'the other session could not cancel it');
  });

  test('strict arguments hold over MCP: duplicate keys, __proto__, huge numbers and deep nesting never reach a run', async () => {
    const auth = { Authorization: `Bearer ${TOKEN_A}` };
    const call = (args: string): string =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workflow_run_start","arguments":${args}}}`;
    const base = '"definition_name":"counter_flow","definition_version":"v1"';
    for (const args of [
      `{${base},"input":{"count":1},"input":{"count":2}}`,
      `{${base},"input":{"count":1},"__proto__":{"idempotency_key":"k"}}`,
      `{${base},"input":{"count":1e400}}`,
      `{${base},"input":{"count":1,"deep":${'['.repeat(40)}${']'.repeat(40)}}}`,
    ]) {
      const reply = await exchange(endpoint.url, call(args), auth);
      const body = JSON.parse(reply.body) as { error?: unknown; result?: { isError?: boolean } };
      const refused = reply.status === 400 || body.error !== undefined || body.result?.isError === true;
      assert.ok(refused, `refused: ${args.slice(0, 80)} → ${reply.body.slice(0, 200)}`);
    }
    const list = await exchange(endpoint.url, rpc('tools/call', { name: 'workflow_run_list', arguments: {} }), auth);
    const runs = valueOf((JSON.parse(list.body) as { result: unknown }).result)['runs'] as JsonObject[];
    assert.equal(runs.length, 1, 'only the run of the first test exists');
  });
});
