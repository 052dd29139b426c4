/**
 * The guided suite's `tracing` part: what OpenTelemetry tracing costs `rimthan.continue_workflow` when it is on.
 * Two in-process MCP servers answer the same continue call over a linked in-memory transport (the whole MCP request
 * path: JSON-RPC, the params check, the tool call, the SDK's result handling): one built from the plain profile, one
 * from the same profile with the request tracer `rimthan serve` wires when `OTEL_*` turns tracing on, its SDK started
 * exactly as serve starts it (parent-based always-on sampler, batch processor, OTLP/HTTP protobuf) and exporting to
 * an OTLP receiver on loopback in this process. Short windows of sequential calls alternate between the two; the
 * figure is the median of the per-pair throughput ratios (tracing on / off), aimed at ≥ 95%. On a loaded machine the
 * spread is wide (an on/off pair of identical servers differs by several percent): quote `--long` figures.
 */
import { createServer } from 'node:http';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { KeyRing, TokenSigner } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { createReleaseScope } from '../../src/guided/index.js';
import {
  createMcpServer,
  createWorkflowEngineProfile,
  startHttpTransport,
  storeReleaseProvider,
} from '../../src/mcp/index.js';
import type { McpProfile } from '../../src/mcp/index.js';
import { tracingConfig } from '../../src/observability/tracing-config.js';
import { startTracingSdk } from '../../src/observability/tracing-sdk.js';
import { Tracing } from '../../src/observability/tracing.js';
import { packagedReleaseStore } from '../../src/registry/index.js';
import { fmt } from '../format.js';
import { median, medianRatio } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import { packagedBodies } from './guided-artifacts.js';
import { walkWorkflow } from './guided-drive.js';
import { BENCH_KEY, fixedClock, guidedClient, loadPackagedRelease } from './guided-participant.js';

const TYPICAL_EVIDENCE_BYTES = 16 * 1024;

/** A raw JSON-RPC client over a linked in-memory transport to a fresh server for `profile`, initialized. */
async function connectRaw(profile: McpProfile): Promise<(method: string, params: JsonObject) => Promise<JsonObject>> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  await createMcpServer(profile).connect(server);
  const pending = new Map<number, (message: JsonObject) => void>();
  client.onmessage = (message: JSONRPCMessage) => {
    const m = message as unknown as JsonObject;
    if (typeof m['id'] === 'number') pending.get(m['id'])?.(m);
  };
  await client.start();
  let next = 0;
  const call = (method: string, params: JsonObject): Promise<JsonObject> =>
    new Promise((resolve) => {
      const id = ++next;
      pending.set(id, (m) => {
        pending.delete(id);
        resolve(m);
      });
      void client.send({ jsonrpc: '2.0', id, method, params });
    });
  await call('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return call;
}

/** An OTLP/HTTP receiver on loopback that drains and counts what it is sent. */
async function receiver(): Promise<{ endpoint: string; bytes(): number; close(): Promise<void> }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bytes: () => bytes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Yields to the event loop, as a real transport does between requests (the in-memory one never does). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Sequential calls for `ms`; calls per second. Each call is followed by a turn of the event loop: the in-memory
 * transport answers in microtasks only, and without the turn the span exporter's timer and socket would never run
 * while the window lasts (its queue would fill and drop spans, hiding the export's cost).
 */
async function window(call: () => Promise<void>, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let done = 0;
  while (performance.now() < until) {
    await call();
    await nextTurn();
    done += 1;
  }
  return done / (ms / 1000);
}

/** One continue over stateless Streamable HTTP; throws on anything but a successful result. */
async function httpCall(url: string, body: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true'))
    throw new Error(`continue failed: ${text.slice(0, 200)}`);
}

/** `clients` concurrent loops of `call` for `ms`; completed calls per second. */
async function concurrent(call: () => Promise<void>, clients: number, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await call();
        done += 1;
      }
    }),
  );
  return done / (ms / 1000);
}

/** Median per-round ratios of `sides` measured in rotating order, `rounds` times; the ops/s of each side. */
async function rotate(
  ctx: SuiteContext,
  label: string,
  sides: readonly (() => Promise<number>)[],
  rounds: number,
): Promise<number[][]> {
  const ops: number[][] = sides.map(() => []);
  for (let r = 0; r < rounds; r++) {
    // Rotate which side goes first, so a drift of the machine's load falls on every side alike.
    for (let k = 0; k < sides.length; k++) {
      const i = (r + k) % sides.length;
      ops[i]?.push(await (sides[i] as () => Promise<number>)());
    }
    if ((r + 1) % 10 === 0 || r + 1 === rounds) ctx.progress(`guided/tracing: ${label} round ${r + 1}/${rounds}`);
  }
  return ops;
}

function figureOf(name: string, on: number[], off: number[], control: number[], note: string): Figure {
  const ratio = medianRatio(on, off);
  return {
    name,
    rimthan: { value: median(on), unit: 'ops/s' },
    baseline: { label: 'the same server, tracing off', quantity: { value: median(off), unit: 'ops/s' } },
    ratio: { value: ratio, text: `${fmt(ratio * 100)}% of tracing off` },
    aim: { text: '≥ 95% of tracing off', met: ratio >= 0.95 },
    note: `${note}; control (two identical untraced servers): ${fmt(medianRatio(control, off) * 100)}%`,
  };
}

export async function tracingPart(ctx: SuiteContext): Promise<{ figures: Figure[]; notes: string[] }> {
  const { release } = loadPackagedRelease();
  const walk = walkWorkflow(
    guidedClient(),
    createReleaseScope(release),
    release,
    packagedBodies(TYPICAL_EVIDENCE_BYTES),
  );
  const profile = createWorkflowEngineProfile({
    releases: storeReleaseProvider(packagedReleaseStore()),
    signer: new TokenSigner(new KeyRing(BENCH_KEY)),
    clock: fixedClock,
  });
  const otlp = await receiver();
  const config = tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint });
  if (config === undefined) throw new Error('tracing did not turn on');
  // The exporter reads its endpoint from the environment, as in `rimthan serve`.
  const saved = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = otlp.endpoint;
  const sdk = startTracingSdk(config, 'bench');
  if (saved === undefined) delete process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  else process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = saved;
  const tracing = new Tracing(sdk.tracer, 'stdio');
  try {
    const off = await connectRaw(profile);
    const traced: McpProfile = { ...profile, traceRequest: tracing.mcpRequest };
    const on = await connectRaw(traced);
    const params = { name: 'rimthan.continue_workflow', arguments: walk.continue.args };
    const continueOn = (call: typeof off) => async (): Promise<void> => {
      const answer = await call('tools/call', params);
      const result = answer['result'] as JsonObject | undefined;
      if (result === undefined || result['isError'] === true)
        throw new Error(`continue failed: ${JSON.stringify(answer).slice(0, 200)}`);
    };
    // A second plain server: the off/off ratio shows how far two identical servers differ on this machine now.
    const control = await connectRaw(profile);
    const [callOff, callOn, callControl] = [continueOn(off), continueOn(on), continueOn(control)];
    // Warm-up of both (V8 tiers up the engine, the validators and the exporter's encoder).
    await window(callOff, ctx.long ? 2000 : 1000);
    await window(callOn, ctx.long ? 2000 : 1000);
    // Many short windows in quick alternation: on a shared machine the load drifts, and a pair of neighbouring
    // windows sees the same load, so the median of the per-pair ratios is what tracing costs.
    const windows = ctx.long ? 120 : 40;
    const ms = ctx.long ? 250 : 200;
    const [offOps, onOps, controlOps] = await rotate(
      ctx,
      'in-process',
      [callOff, callOn, callControl].map((call) => () => window(call, ms)),
      windows,
    );
    const inProcess = figureOf(
      'continue_workflow ops/s, tracing on (in-process MCP server, OTLP protobuf export)',
      onOps ?? [],
      offOps ?? [],
      controlOps ?? [],
      `${windows} rotating windows of ${ms} ms`,
    );
    // The same over stateless Streamable HTTP, as a service answers it: 16 concurrent clients.
    const common = { port: 0, maxRequestBytes: 4 * 1024 * 1024 };
    const endpoints = await Promise.all([
      startHttpTransport({ ...common, serverFor: () => createMcpServer(profile) }),
      startHttpTransport({ ...common, serverFor: () => createMcpServer(traced) }),
      startHttpTransport({ ...common, serverFor: () => createMcpServer(profile) }),
    ]);
    let httpFigure: Figure;
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      const calls = endpoints.map((e) => () => httpCall(e.url, body));
      for (const call of calls) await concurrent(call, 16, ctx.long ? 2000 : 1000);
      const httpMs = ctx.long ? 1000 : 500;
      const rounds = ctx.long ? 40 : 14;
      const [hOff, hOn, hControl] = await rotate(
        ctx,
        'http',
        calls.map((call) => () => concurrent(call, 16, httpMs)),
        rounds,
      );
      httpFigure = figureOf(
        'continue_workflow ops/s, tracing on (Streamable HTTP, 16 clients, OTLP protobuf export)',
        hOn ?? [],
        hOff ?? [],
        hControl ?? [],
        `${rounds} rotating windows of ${httpMs} ms`,
      );
    } finally {
      await Promise.all(endpoints.map((e) => e.close()));
    }
    await sdk.shutdown();
    const figure = inProcess;
    return {
      figures: [figure, httpFigure],
      notes: [
        'tracing: one span per MCP request through the request tracer `rimthan serve` wires; sampler parent-based ' +
          'always-on, batch span processor defaults, OTLP/HTTP protobuf to a loopback receiver in the same process ' +
          `(${fmt(otlp.bytes() / 1024)} KiB of spans exported in all)`,
      ],
    };
  } finally {
    await sdk.shutdown().catch(() => undefined);
    await otlp.close();
  }
}
