/**
 * Observability without participant data: after a full guided workflow over Streamable HTTP, driven by an
 * authenticated caller with a marker in its objective, the metrics count the calls by tool, status and code and the
 * HTTP statuses, and hold neither the marker nor the principal nor the token. Log lines are JSON with safe fields only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { principalIdOf } from '../../src/identity/index.js';
import {
  createMcpServer,
  createWorkflowEngineProfile,
  startHttpTransport,
  storeReleaseProvider,
} from '../../src/mcp/index.js';
import { errorKindOf, jsonLogger, ServiceMetrics } from '../../src/observability/index.js';
import { packagedReleaseStore } from '../../src/registry/index.js';
import { callTool, testSigner } from '../mcp/support/connect.js';
import { confirmed, Participant } from '../mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../mcp/support/research-run.js';
import { sample } from '../support/metrics-scrape.js';

const TOKEN = 'metrics-participant-token-4d9e1b7c';
const MARKER = 'participant-marker-91c7f3e0a2';

test('a scrape after a full workflow counts calls and statuses, and holds no marker, principal or token', async () => {
  const metrics = new ServiceMetrics();
  metrics.followReleases(() => ({
    active: { release: 'research-2026.11.1', manifest_sha256: 'a'.repeat(64) },
    migration_target: null,
    degraded: 'active: research-2026.12.1 digest_mismatch',
    refreshes: 7,
    refresh_failures: 1,
  }));
  const profile = createWorkflowEngineProfile({
    releases: storeReleaseProvider(packagedReleaseStore(), { refreshIntervalMs: 0 }),
    signer: testSigner(),
  });
  const observed = { ...profile, observeToolCall: metrics.toolCall.bind(metrics) };
  const endpoint = await startHttpTransport({
    port: 0,
    maxRequestBytes: 4 * 1024 * 1024,
    bearerTokens: [TOKEN],
    serverFor: () => createMcpServer(observed),
    onResponse: (status) => metrics.httpResponse(status),
  });
  try {
    const refused = await fetch(endpoint.url, { method: 'POST', body: '{}' });
    assert.equal(refused.status, 401);
    const client = new Client({ name: 'metrics', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      // The packaged active release is the library: its research-decision pins the shared Claude Code adapter 2.0.0.
      const p = new Participant((name, args) => callTool(client, name, args), {
        adapter: { id: 'claude-code-host', version: '2.0.0' },
      });
      p.state = confirmed({ objective: `Decide ${MARKER}` });
      await toRouteQuestion(p);
      const statuses = await fromRouteToCompletion(p);
      assert.equal(statuses.at(-1), 'completed');
      // One refused call: a forged checkpoint is a tool error with its code.
      const forged = await callTool(client, 'rimthan.continue_workflow', {
        checkpoint: { ...(p.checkpoint ?? {}), token: `${MARKER}.${MARKER}` },
        confirmed_state: p.state,
      });
      assert.equal(forged.isError, true);
    } finally {
      await client.close();
    }
  } finally {
    await endpoint.close();
  }
  const text = await metrics.render();
  assert.match(metrics.contentType, /^text\/plain/);
  assert.ok(!text.includes(MARKER), 'no participant marker in the metrics');
  assert.ok(!text.includes(TOKEN), 'no token in the metrics');
  assert.ok(!text.includes(principalIdOf({ kind: 'bearer', token: TOKEN })), 'no principal in the metrics');
  assert.ok(sample(text, 'rimthan_tool_calls_total{tool="rimthan.start_workflow",status="ok",code="none"}') >= 1);
  assert.ok(sample(text, 'rimthan_tool_calls_total{tool="rimthan.continue_workflow",status="ok",code="none"}') >= 3);
  assert.ok(
    sample(text, 'rimthan_tool_calls_total{tool="rimthan.submit_step_validation",status="ok",code="none"}') >= 1,
  );
  assert.equal(
    sample(
      text,
      'rimthan_tool_calls_total{tool="rimthan.continue_workflow",status="tool_error",code="workflow_checkpoint_error"}',
    ),
    1,
  );
  assert.ok(sample(text, 'rimthan_tool_call_duration_seconds_count{tool="rimthan.prepare_step_validation"}') >= 1);
  assert.equal(sample(text, 'rimthan_http_responses_total{status="401"}'), 1);
  assert.ok(sample(text, 'rimthan_http_responses_total{status="200"}') >= 8);
  assert.equal(sample(text, 'rimthan_release_info{channel="active",release="research-2026.11.1"}'), 1);
  assert.doesNotMatch(text, /channel="migration-target"/);
  assert.equal(sample(text, 'rimthan_release_refresh_failures_total'), 1);
  assert.equal(sample(text, 'rimthan_release_refreshes_total'), 7);
  assert.equal(sample(text, 'rimthan_release_degraded'), 1);
  assert.ok(sample(text, 'rimthan_process_resident_memory_bytes') > 0);
  // Two instances never share figures.
  assert.doesNotMatch(await new ServiceMetrics({ processMetrics: false }).render(), /tool="rimthan/);
});

test('labels never carry free text: an unknown code or odd release name counts as "other"', async () => {
  const metrics = new ServiceMetrics({ processMetrics: false });
  metrics.toolCall('rimthan.start_workflow', 'tool_error', `bad code with ${MARKER} spaces`, 0.01);
  metrics.followReleases(() => ({
    active: { release: `release ${MARKER}`, manifest_sha256: 'a'.repeat(64) },
    migration_target: null,
    degraded: null,
    refreshes: 1,
    refresh_failures: 0,
  }));
  metrics.clientAbort('reset');
  metrics.fault(`where ${MARKER}`);
  const observer = metrics.storeObserver();
  observer.commitBatch?.({ writes: 3, durationMs: 2, ok: true });
  observer.claimed?.({ runs: 2, takeovers: 1 });
  observer.pruned?.({ definition_name: 'nightly_report', runs: 3 });
  observer.pruned?.({ definition_name: `flow ${MARKER}`, runs: 1 });
  metrics.runStatuses(() => Promise.resolve({ running: 2, completed: 5 }));
  const text = await metrics.render();
  assert.ok(!text.includes(MARKER));
  assert.match(text, /rimthan_tool_calls_total\{tool="rimthan.start_workflow",status="tool_error",code="other"\} 1/);
  assert.match(text, /rimthan_release_info\{channel="active",release="other"\} 1/);
  assert.match(text, /rimthan_runs_commits_total\{outcome="ok"\} 3/);
  assert.match(text, /rimthan_runs_lease_takeovers_total 1/);
  assert.match(text, /rimthan_runs_pruned_total\{flow="nightly_report"\} 3/);
  assert.match(text, /rimthan_runs_pruned_total\{flow="other"\} 1/);
  assert.match(text, /rimthan_runs\{status="completed"\} 5/);
  assert.match(text, /rimthan_release_degraded 0/);
  assert.match(text, /rimthan_http_client_aborts_total\{reason="reset"\} 1/);
  assert.match(text, /rimthan_internal_faults_total\{where="other"\} 1/);
});

test('log lines are one JSON object each, with safe fields only: no query string, no error message', () => {
  const lines: string[] = [];
  const log = jsonLogger(
    (line) => lines.push(line),
    () => new Date('2026-12-01T00:00:00.000Z'),
  );
  log.log('start', { profile: 'workflow-engine', transport: 'http', listen: `http://127.0.0.1:8765/mcp?t=${MARKER}` });
  log.log('release_change', { channel: 'active', release: 'research-2026.12.1', previous: `x ${MARKER}` });
  log.fault('http', Object.assign(new Error(`boom ${MARKER}`), { code: 'ECONNREFUSED' }));
  log.fault('tools/call', new TypeError(`bad ${MARKER}`));
  assert.ok(lines.every((l) => !l.includes(MARKER) && !l.includes('\n')));
  assert.deepEqual(
    lines.map((l) => JSON.parse(l) as unknown),
    [
      {
        time: '2026-12-01T00:00:00.000Z',
        level: 'info',
        event: 'start',
        profile: 'workflow-engine',
        transport: 'http',
        listen: 'http://127.0.0.1:8765/mcp',
      },
      {
        time: '2026-12-01T00:00:00.000Z',
        level: 'info',
        event: 'release_change',
        channel: 'active',
        release: 'research-2026.12.1',
        previous: 'other',
      },
      { time: '2026-12-01T00:00:00.000Z', level: 'error', event: 'fault', where: 'http', kind: 'ECONNREFUSED' },
      { time: '2026-12-01T00:00:00.000Z', level: 'error', event: 'fault', where: 'tools/call', kind: 'TypeError' },
    ],
  );
  assert.equal(errorKindOf(null), 'Error');
});
