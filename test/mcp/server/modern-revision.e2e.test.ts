/**
 * MCP 2026-07-28 end to end with the v2 SDK client pinned to that revision (no `initialize`): the whole packaged
 * research-decision workflow and the durable-run lifecycle, each over stdio and over Streamable HTTP against a real
 * `rimthan serve`, plus what the revision changes on the wire: `server/discover`, `cacheScope`/`ttlMs` on cacheable
 * results, a fixed tool order, the `Mcp-Method`/`Mcp-Name` header check and the revision's resource-not-found code.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { JsonObject } from '../../../src/core/index.js';
import { REVIEW_FLOWS_MODULE } from '../../support/review-flow.js';
import { spawnServe } from '../../support/serve-process.js';
import { eventually } from '../../support/serve-process.js';
import { MODERN_REVISION, modernCall, modernHttp, modernStdio } from '../support/modern-client.js';
import { LIBRARY_HOST, Participant } from '../support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../support/research-run.js';

const TOKEN = 'modern-revision-token-0123456789abcdef';
const GUIDED_ORDER = [
  'rimthan.start_workflow',
  'rimthan.continue_workflow',
  'rimthan.prepare_step_validation',
  'rimthan.submit_step_validation',
];

type Caller = (name: string, args: JsonObject) => Promise<{ isError: boolean; value: JsonObject }>;

async function researchDecision(client: Client): Promise<void> {
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN_REVISION);
  const discovered = client.getDiscoverResult();
  assert.ok(discovered?.supportedVersions.includes(MODERN_REVISION), 'server/discover names the revision');
  const first = (await client.listTools()).tools.map((t) => t.name);
  const second = (await client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(first, GUIDED_ORDER, 'the four tools in their fixed order');
  assert.deepEqual(second, first, 'the same order on every call');
  const p = new Participant((name, args) => modernCall(client, name, args), LIBRARY_HOST);
  await toRouteQuestion(p);
  assert.deepEqual(await fromRouteToCompletion(p), ['validation_failed', 'advanced', 'completed']);
  const prompt = await client.getPrompt({ name: 'rimthan.start_workflow' });
  assert.ok(prompt.messages.length > 0);
  const resources = await client.listResources();
  assert.ok(resources.resources.some((r) => r.uri === 'rimthan://bootstrap/agent-entrypoint'));
}

async function statusOf(call: Caller, runId: string): Promise<string> {
  const got = await call('workflow_run_get', { run_id: runId });
  assert.equal(got.isError, false, JSON.stringify(got.value));
  return got.value['run_status'] as string;
}

async function runsLifecycle(client: Client): Promise<void> {
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN_REVISION);
  const call: Caller = (name, args) => modernCall(client, name, args);
  const { tools } = await client.listTools();
  assert.equal(tools.length, 7);
  const listed = await call('workflow_definition_list', {});
  assert.deepEqual(
    (listed.value['definitions'] as JsonObject[]).map((d) => d['name']),
    ['review_flow'],
  );
  const started = await call('workflow_run_start', {
    definition_name: 'review_flow',
    definition_version: 'v1',
    input: { title: 'Quarterly note' },
  });
  assert.equal(started.isError, false, JSON.stringify(started.value));
  const runId = started.value['run_id'] as string;
  await eventually('the run waits for its review', async () => (await statusOf(call, runId)) === 'interrupted');
  const refused = await call('workflow_run_resume', { run_id: runId, resume: { approved: 'yes' } });
  assert.equal(refused.isError, true);
  assert.equal((refused.value['error'] as JsonObject)['code'], 'invalid_input');
  const resumed = await call('workflow_run_resume', { run_id: runId, resume: { approved: true } });
  assert.equal(resumed.isError, false, JSON.stringify(resumed.value));
  await eventually('the run completes', async () => (await statusOf(call, runId)) === 'completed');
  const history = await call('workflow_run_history', { run_id: runId });
  const kinds = (history.value['entries'] as JsonObject[]).map((e) => String(e['kind'] as string));
  for (const kind of ['run_started', 'run_interrupted', 'run_resumed', 'run_completed']) {
    assert.ok(kinds.includes(kind), `${kind} in ${kinds.join()}`);
  }

  const second = await call('workflow_run_start', {
    definition_name: 'review_flow',
    definition_version: 'v1',
    input: { title: 'Dropped note' },
  });
  const secondId = second.value['run_id'] as string;
  await eventually('the second run waits', async () => (await statusOf(call, secondId)) === 'interrupted');
  const cancelled = await call('workflow_run_cancel', { run_id: secondId, reason: 'not needed' });
  assert.deepEqual(cancelled.value, { run_id: secondId, run_status: 'cancelled', idempotent: false });
  const conflict = await call('workflow_run_cancel', { run_id: runId });
  assert.equal((conflict.value['error'] as JsonObject)['code'], 'conflict');
  const runs = await call('workflow_run_list', {});
  const ids = (runs.value['runs'] as JsonObject[]).map((r) => r['run_id']);
  assert.deepEqual([...ids].sort(), [runId, secondId].sort());
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
};

async function post(
  url: string,
  body: JsonObject,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; value: JsonObject }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${TOKEN}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, value: (await response.json()) as JsonObject };
}

function modern(method: string, params: JsonObject, name?: string): [JsonObject, Record<string, string>] {
  const headers: Record<string, string> = { 'Mcp-Protocol-Version': MODERN_REVISION, 'Mcp-Method': method };
  if (name !== undefined) headers['Mcp-Name'] = name;
  return [{ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }, headers];
}

describe('MCP 2026-07-28 with the v2 client', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-modern-'));
  const flows = join(work, 'flows.mjs');
  writeFileSync(flows, REVIEW_FLOWS_MODULE);
  const env = { HOME: work, XDG_STATE_HOME: work };
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the research-decision workflow to completed over stdio', async () => {
    const served = await modernStdio([], env);
    try {
      await researchDecision(served.client);
    } finally {
      await served.close();
    }
    assert.doesNotMatch(served.stderr(), /Pick the queue|billing/, 'no participant data on stderr');
  });

  test('the research-decision workflow to completed over Streamable HTTP', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0'], {
      ...env,
      RIMTHAN_MCP_BEARER_TOKEN: TOKEN,
    });
    try {
      const client = await modernHttp(server.url, TOKEN);
      try {
        await researchDecision(client);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  test('the run lifecycle (start, interrupt, resume, complete, cancel, history, list) over stdio', async () => {
    const store = `sqlite:${join(work, 'runs-stdio.db')}`;
    const served = await modernStdio(
      ['--profile', 'runs', '--store', store, '--flows', flows, '--session', 'ops'],
      env,
    );
    try {
      await runsLifecycle(served.client);
    } finally {
      await served.close();
    }
  });

  test('the run lifecycle over Streamable HTTP', async () => {
    const store = `sqlite:${join(work, 'runs-http.db')}`;
    const server = await spawnServe(
      ['--profile', 'runs', '--transport', 'http', '--port', '0', '--store', store, '--flows', flows],
      { ...env, RIMTHAN_MCP_BEARER_TOKEN: TOKEN },
    );
    try {
      const client = await modernHttp(server.url, TOKEN);
      try {
        await runsLifecycle(client);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  test('on the wire: cacheScope and ttlMs on 2026 listings, the marker on 2025 ones, header checks, not-found codes', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0'], {
      ...env,
      RIMTHAN_MCP_BEARER_TOKEN: TOKEN,
    });
    try {
      const listing = await post(server.url, ...modern('tools/list', {}));
      assert.equal(listing.status, 200);
      assert.equal(listing.headers.get('cache-control'), 'private, no-store');
      const result = listing.value['result'] as JsonObject;
      assert.equal(result['cacheScope'], 'private');
      assert.equal(typeof result['ttlMs'], 'number');
      assert.equal((result['_meta'] as JsonObject | undefined)?.['dev.rimthan/cache-scope'], undefined);
      assert.deepEqual(
        (result['tools'] as JsonObject[]).map((t) => t['name']),
        GUIDED_ORDER,
      );
      for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
        const other = (await post(server.url, ...modern(method, {}))).value['result'] as JsonObject;
        assert.equal(other['cacheScope'], 'private', method);
        assert.equal(typeof other['ttlMs'], 'number', method);
      }
      const read = await post(
        server.url,
        ...modern(
          'resources/read',
          { uri: 'rimthan://bootstrap/agent-entrypoint' },
          'rimthan://bootstrap/agent-entrypoint',
        ),
      );
      assert.equal((read.value['result'] as JsonObject)['cacheScope'], 'private');

      const legacy = await post(
        server.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        { 'Mcp-Protocol-Version': '2025-11-25' },
      );
      const legacyResult = legacy.value['result'] as JsonObject;
      assert.equal(legacyResult['ttlMs'], undefined, '2025 results carry no 2026 fields');
      assert.deepEqual(legacyResult['_meta'], { 'dev.rimthan/cache-scope': 'private' });
      assert.deepEqual(
        (legacyResult['tools'] as JsonObject[]).map((t) => t['name']),
        GUIDED_ORDER,
      );

      const [callBody] = modern('tools/call', { name: 'rimthan.start_workflow', arguments: {} });
      const mismatch = await post(server.url, callBody, {
        'Mcp-Protocol-Version': MODERN_REVISION,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'rimthan.continue_workflow',
      });
      assert.equal(mismatch.status, 400);
      assert.equal(typeof (mismatch.value['error'] as JsonObject)['code'], 'number');
      assert.match((mismatch.value['error'] as JsonObject)['message'] as string, /Mcp-Name/);
      const wrongMethod = await post(server.url, callBody, {
        'Mcp-Protocol-Version': MODERN_REVISION,
        'Mcp-Method': 'tools/list',
      });
      assert.equal(wrongMethod.status, 400);

      const missing = 'rimthan://registry/no-such-release/workflows/x/1.0.0';
      const modernMissing = await post(server.url, ...modern('resources/read', { uri: missing }, missing));
      assert.equal((modernMissing.value['error'] as JsonObject)['code'], -32602, '2026: invalid params');
      assert.deepEqual((modernMissing.value['error'] as JsonObject)['data'], { uri: missing });
      const legacyMissing = await post(
        server.url,
        { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: missing } },
        { 'Mcp-Protocol-Version': '2025-11-25' },
      );
      assert.equal((legacyMissing.value['error'] as JsonObject)['code'], -32002, '2025: resource not found');

      const badParams = await post(server.url, ...modern('tools/call', { name: 7 }));
      assert.equal((badParams.value['error'] as JsonObject)['code'], -32602);
      assert.equal((badParams.value['error'] as JsonObject)['message'], 'invalid params for tools/call');
    } finally {
      await server.stop();
    }
  });
});
