/**
 * OpenTelemetry traces of real `rimthan serve` processes, exported to a real OTLP/HTTP receiver on loopback
 * (support/otlp-receiver.ts): the workflow-engine profile over OTLP/JSON, the runs profile over OTLP protobuf. A
 * participant with a marker in every argument walks the guided workflow (or starts a run with the marker in its
 * input); one call carries a W3C `traceparent` in `params._meta`, one Admin API call in its header. The spans follow
 * the GenAI MCP conventions, runs have an `invoke_workflow` span with a child per vertex, and neither the marker, the
 * bearer tokens nor the principals appear anywhere in the exported bytes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { principalIdOf } from '../../src/identity/index.js';
import { callTool, OLD_RELEASE, tempReleaseStore } from '../mcp/support/connect.js';
import { confirmed, Participant } from '../mcp/support/participant.js';
import { toRouteQuestion } from '../mcp/support/research-run.js';
import { writeGreetingFlows } from '../support/greeting-flow.js';
import { eventually, httpClient, spawnServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from './support/otlp-receiver.js';

const MARKER = 'otel-marker-9d3e71c0a5';
const TOKEN = 'otel-participant-token-4b8e2f61c9d0';
const ADMIN_TOKEN = 'otel-admin-token-7a1c5e93b2f4d6';
const SECRET = 'otel-test-secret-0123456789abcdef0123456789abcdef';
const PRINCIPAL = principalIdOf({ kind: 'bearer', token: TOKEN });
const ADMIN_PRINCIPAL = principalIdOf({ kind: 'bearer', token: ADMIN_TOKEN });
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const ADMIN_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const ADMIN_PARENT_ID = 'b7ad6b7169203331';
const SERVER = 2;

/** What must appear in no exported byte. */
function assertClean(receiver: OtlpReceiver, extra: readonly string[] = []): void {
  const bytes = receiver.allBytes();
  assert.ok(bytes.length > 0, 'something was exported');
  for (const secret of [MARKER, TOKEN, ADMIN_TOKEN, PRINCIPAL, ADMIN_PRINCIPAL, SECRET, ...extra]) {
    assert.ok(!bytes.includes(secret), `the exported spans hold ${secret.slice(0, 12)}…`);
  }
}

function named(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((s) => s.name === name);
}

describe('rimthan serve: OpenTelemetry traces over OTLP/HTTP hold no participant data', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-otel-'));
  const tokenFile = join(work, 'tokens');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  const running: ServeProcess[] = [];
  const receivers: OtlpReceiver[] = [];
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    rmSync(work, { recursive: true, force: true });
  });

  /** `rimthan serve --transport http` exporting to a fresh receiver with the given protocol. */
  async function serveTraced(args: readonly string[], protocol: string): Promise<[ServeProcess, OtlpReceiver]> {
    const receiver = await startOtlpReceiver();
    receivers.push(receiver);
    const serve = await spawnServe(
      ['--transport', 'http', '--port', '0', '--admin-port', '0', '--token-file', tokenFile, ...args],
      {
        RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN,
        RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET,
        XDG_STATE_HOME: join(work, 'state'),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'rimthan-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    );
    running.push(serve);
    return [serve, receiver];
  }

  test('workflow-engine over OTLP/JSON: MCP request spans, the _meta parent, a tool error, an admin span', async () => {
    const releases = tempReleaseStore(OLD_RELEASE);
    const [serve, receiver] = await serveTraced(['--releases', releases.dir], 'http/json');
    try {
      const client = await httpClient(serve.url, TOKEN);
      try {
        const p = new Participant((name, args) => callTool(client, name, args));
        p.state = confirmed({ objective: `Decide ${MARKER}` });
        await toRouteQuestion(p);
        // A call with the caller's trace context, whose arguments break the schema (a tool error).
        const refused = await client.callTool({
          name: 'rimthan.start_workflow',
          arguments: { objective: MARKER },
          _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'rojo=00f067aa0ba902b7' },
        });
        assert.equal(refused.isError, true);
        // A tool nobody serves: its made-up name is not recorded.
        await assert.rejects(client.callTool({ name: `no.such.${MARKER}`, arguments: {} }));
      } finally {
        await client.close();
      }
      const admin = await fetch(`${serve.adminUrl ?? ''}/releases/${OLD_RELEASE}`, {
        headers: {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
          traceparent: `00-${ADMIN_TRACE_ID}-${ADMIN_PARENT_ID}-01`,
        },
      });
      assert.equal(admin.status, 200);
      await admin.arrayBuffer();
    } finally {
      await serve.stop();
      releases.cleanup();
    }
    assert.ok(receiver.exports.every((e) => e.path === '/v1/traces' && e.contentType.startsWith('application/json')));
    const spans = receiver.spans();
    assert.ok(
      spans.every((s) => s.resource['service.name'] === 'rimthan-under-test'),
      'OTEL_SERVICE_NAME is honoured',
    );

    const calls = spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
    assert.ok(calls.length >= 5, `tools/call spans: ${calls.length}`);
    for (const call of calls) {
      assert.equal(call.kind, SERVER);
      assert.equal(call.attributes['network.transport'], 'tcp');
      assert.equal(call.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.match(String(call.attributes['jsonrpc.request.id']), /^\d+$/);
    }
    const starts = named(spans, 'tools/call rimthan.start_workflow');
    assert.equal(starts.length, 2);
    assert.ok(named(spans, 'tools/call rimthan.continue_workflow').length >= 2);
    assert.equal(starts[0]?.attributes['gen_ai.tool.name'], 'rimthan.start_workflow');
    assert.ok(named(spans, 'initialize').length >= 1, 'every MCP request has a span, initialize included');
    assert.equal(named(spans, 'initialize')[0]?.attributes['mcp.protocol.version'], '2025-11-25');

    const child = calls.find((s) => s.traceId === TRACE_ID);
    assert.ok(child !== undefined, 'the span of the call with a traceparent is in the caller’s trace');
    assert.equal(child.parentSpanId, PARENT_ID);
    assert.equal(child.attributes['error.type'], 'tool_error');
    assert.equal(child.statusCode, 2);
    const others = calls.filter((s) => s !== child);
    assert.ok(
      others.every((s) => s.parentSpanId === '' && s.traceId !== TRACE_ID),
      'no parent without a traceparent',
    );

    const unknown = calls.find((s) => s.attributes['error.type'] === '-32601');
    assert.ok(unknown !== undefined, 'the unknown tool is a JSON-RPC error span');
    assert.equal(unknown.name, 'tools/call');
    assert.equal(unknown.attributes['gen_ai.tool.name'], undefined);
    assert.equal(unknown.attributes['rpc.response.status_code'], '-32601');

    const adminSpan = named(spans, 'GET /admin/releases/:release')[0];
    assert.ok(adminSpan !== undefined, `an admin span: ${spans.map((s) => s.name).join(', ')}`);
    assert.equal(adminSpan.kind, SERVER);
    assert.equal(adminSpan.attributes['http.route'], '/admin/releases/:release');
    assert.equal(adminSpan.attributes['http.response.status_code'], 200);
    assert.equal(adminSpan.traceId, ADMIN_TRACE_ID);
    assert.equal(adminSpan.parentSpanId, ADMIN_PARENT_ID);
    assertClean(receiver);
  });

  test('runs profile over OTLP protobuf: an invoke_workflow span per run and a child span per vertex', async () => {
    const flows = writeGreetingFlows(join(work, 'flows.mjs'));
    const [serve, receiver] = await serveTraced(
      ['--profile', 'runs', '--store', `sqlite:${join(work, 'runs.db')}`, '--flows', flows],
      'http/protobuf',
    );
    let runId = '';
    try {
      const client = await httpClient(serve.url, TOKEN);
      try {
        const started = await callTool(client, 'workflow_run_start', {
          definition_name: 'greeting_flow',
          definition_version: 'v1',
          input: { name: MARKER },
        });
        assert.equal(started.isError, false, JSON.stringify(started.value));
        runId = started.value['run_id'] as string;
        await eventually('the run completes', async () => {
          const got = await callTool(client, 'workflow_run_get', { run_id: runId });
          return got.value['run_status'] === 'completed';
        });
      } finally {
        await client.close();
      }
    } finally {
      await serve.stop();
    }
    assert.ok(receiver.exports.every((e) => e.contentType === 'application/x-protobuf' && e.body.length > 0));
    const spans = receiver.spans();
    const runs = named(spans, 'invoke_workflow greeting_flow');
    assert.equal(runs.length, 1, spans.map((s) => s.name).join(', '));
    const run = runs[0];
    assert.ok(run !== undefined);
    assert.equal(run.attributes['gen_ai.operation.name'], 'invoke_workflow');
    assert.equal(run.attributes['gen_ai.workflow.name'], 'greeting_flow');
    assert.equal(run.attributes['rimthan.run.outcome'], 'completed');
    const vertex = named(spans, 'vertex greet')[0];
    assert.ok(vertex !== undefined);
    assert.equal(vertex.parentSpanId, run.spanId);
    assert.equal(vertex.traceId, run.traceId);
    assert.equal(vertex.attributes['rimthan.vertex.outcome'], 'completed');
    assert.equal(
      named(spans, 'tools/call workflow_run_start')[0]?.attributes['gen_ai.tool.name'],
      'workflow_run_start',
    );
    assertClean(receiver, [runId]);
  });
});
