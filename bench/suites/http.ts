/**
 * `npm run bench -- http`: rimthan.continue_workflow over stateless Streamable HTTP against a bare SDK echo tool
 * served the same way (our `startHttpTransport`: one fresh SDK Server and transport per POST, same guards, same
 * bearer token), in the same run. Latency at 1 client (interleaved rounds, medians), throughput at 16 concurrent
 * clients, and RSS growth of this process over a soak window of continue calls at 16 clients
 * (`--duration=SECONDS`; default 20 s, 300 s with --long).
 */
import { Server } from '@modelcontextprotocol/server';
import { KeyRing, TokenSigner } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { createReleaseScope } from '../../src/guided/index.js';
import {
  createMcpServer,
  createWorkflowEngineProfile,
  startHttpTransport,
  storeReleaseProvider,
} from '../../src/mcp/index.js';
import type { HttpEndpoint } from '../../src/mcp/index.js';
import { packagedReleaseStore } from '../../src/registry/index.js';
import { fmt } from '../format.js';
import { median, medianRatio } from '../harness.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { packagedBodies } from './guided-artifacts.js';
import { walkWorkflow } from './guided-drive.js';
import { BENCH_KEY, fixedClock, guidedClient, loadPackagedRelease } from './guided-participant.js';

const TOKEN = 'bench-http-token-0123456789abcdef';
const TYPICAL_EVIDENCE_BYTES = 16 * 1024;

function echoServer(): Server {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'echo', description: 'echo', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler('tools/call', (request) => {
    const args = request.params.arguments ?? {};
    return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args };
  });
  return server;
}

/** A POST of one tools/call; resolves with the elapsed milliseconds, throws on anything but a successful result. */
async function call(url: string, body: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });
  const text = await response.text();
  const elapsed = performance.now() - start;
  if (response.status !== 200 || text.includes('"isError":true') || text.includes('"error":{'))
    throw new Error(`call failed (${response.status}): ${text.slice(0, 200)}`);
  return elapsed;
}

/** `clients` concurrent loops for `ms`; completed calls per second. */
async function throughput(url: string, body: string, clients: number, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        await call(url, body);
        done += 1;
      }
    }),
  );
  return done / (ms / 1000);
}

async function run(ctx: SuiteContext): Promise<{ figures: Figure[]; notes: string[] }> {
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
  const common = { port: 0, maxRequestBytes: 4 * 1024 * 1024, bearerTokens: [TOKEN] };
  const guided: HttpEndpoint = await startHttpTransport({ ...common, serverFor: () => createMcpServer(profile) });
  const echo: HttpEndpoint = await startHttpTransport({ ...common, serverFor: echoServer });
  const rpc = (name: string, args: JsonObject): string =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const continueBody = rpc('rimthan.continue_workflow', walk.continue.args);
  const echoBody = rpc('echo', walk.continue.args);
  try {
    // Warm-up, and a check that both answer.
    for (let i = 0; i < 200; i++) {
      await call(guided.url, continueBody);
      await call(echo.url, echoBody);
    }
    // 1 client: interleaved rounds of sequential calls, median per round.
    const rounds = ctx.long ? 30 : 12;
    const perRound = ctx.long ? 200 : 80;
    const guidedRounds: number[] = [];
    const echoRounds: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const g: number[] = [];
      const e: number[] = [];
      for (let i = 0; i < perRound; i++) {
        g.push(await call(guided.url, continueBody));
        e.push(await call(echo.url, echoBody));
      }
      guidedRounds.push(median(g));
      echoRounds.push(median(e));
      ctx.progress(`http: 1 client round ${r + 1}/${rounds}`);
    }
    const latencyRatio = medianRatio(guidedRounds, echoRounds);
    // 16 clients: interleaved windows.
    const windowMs = ctx.long ? 5_000 : 2_000;
    const windows = ctx.long ? 8 : 4;
    const gTp: number[] = [];
    const eTp: number[] = [];
    for (let w = 0; w < windows; w++) {
      gTp.push(await throughput(guided.url, continueBody, 16, windowMs));
      eTp.push(await throughput(echo.url, echoBody, 16, windowMs));
      ctx.progress(`http: 16 clients window ${w + 1}/${windows}`);
    }
    const tpRatio = medianRatio(gTp, eTp);
    // RSS over a soak window of continue calls at 16 clients.
    const soakS = ctx.durationSeconds ?? (ctx.long ? 300 : 20);
    globalThis.gc?.();
    const rssStart = process.memoryUsage().rss;
    const soakStart = performance.now();
    let soakCalls = 0;
    while (performance.now() - soakStart < soakS * 1000) {
      const slice = Math.min(10_000, soakS * 1000 - (performance.now() - soakStart));
      soakCalls += Math.round((await throughput(guided.url, continueBody, 16, Math.max(slice, 100))) * (slice / 1000));
      ctx.progress(`http: soak ${Math.round((performance.now() - soakStart) / 1000)}/${soakS} s`);
    }
    globalThis.gc?.();
    const rssEnd = process.memoryUsage().rss;
    const growth = (rssEnd - rssStart) / rssStart;
    const g1 = median(guidedRounds);
    const e1 = median(echoRounds);
    return {
      figures: [
        {
          name: 'continue_workflow latency over HTTP, 1 client',
          rimthan: { value: g1, unit: 'ms' },
          baseline: { label: 'bare SDK echo tool, same transport', quantity: { value: e1, unit: 'ms' } },
          ratio: { value: latencyRatio, text: `${fmt(latencyRatio)}× the echo's latency` },
          aim: { text: '≤ 1.3× echo', met: latencyRatio <= 1.3 },
          note: `${rounds} interleaved rounds of ${perRound} calls, medians`,
        },
        {
          name: 'continue_workflow throughput over HTTP, 16 clients',
          rimthan: { value: median(gTp), unit: 'calls/s' },
          baseline: { label: 'bare SDK echo tool, same transport', quantity: { value: median(eTp), unit: 'calls/s' } },
          ratio: { value: tpRatio, text: `${fmt(tpRatio)}× the echo's throughput` },
          aim: { text: '≥ 0.75× echo', met: tpRatio >= 0.75 },
          note: `${windows} interleaved ${windowMs / 1000} s windows, medians`,
        },
        {
          name: `RSS growth over ${soakS} s of continue_workflow at 16 clients`,
          rimthan: { value: growth * 100, unit: '%' },
          aim: { text: '< 10%', met: growth < 0.1 },
          note: `${fmt(rssStart / 1048576)} → ${fmt(rssEnd / 1048576)} MiB, ~${soakCalls} calls (client and server share the process)`,
        },
      ],
      notes: [
        'Both endpoints are served by startHttpTransport (fresh SDK Server + transport per POST, Host/Origin checks, bearer token, body cap); the echo server is the SDK default (its own Ajv per Server), ours shares one validator.',
        "continue_workflow arguments: the interview step's continue from the packaged release (a signed checkpoint); the echo tool receives the same arguments.",
      ],
    };
  } finally {
    await guided.close();
    await echo.close();
  }
}

export const suite: Suite = {
  name: 'http',
  description: 'continue_workflow over Streamable HTTP vs a bare SDK echo tool, 1 and 16 clients; RSS under load',
  run,
};
