/**
 * `rimthan runs upgrade`, `runs restart` and `runs send-event` as an operator types them: the real command, a SQLite store a worker
 * serves, flows from a `--flows` module. The command only writes the store; the worker picks the run up and finishes it.
 * (The library functions behind them are tested on both backends in test/runs/operator.test.ts.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import type { JsonObject } from '../../../src/core/index.js';
import { FlowCatalog, Supervisor, type FlowSpec, type RunRecord, type RunStatus } from '../../../src/runs/index.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { captureIo } from '../support.js';

const RUNS = pathToFileURL(fileURLToPath(new URL('../../../src/runs/index.js', import.meta.url))).href;

/**
 * approval_flow v1 (add → ask → done) and v2 (review → finish, declaring how v1 runs paused at `ask` move over), and
 * fragile_flow (a → b → c) whose edge after b names no vertex while `globalThis.rimthanTestEdgeBroken` is true.
 */
const FLOWS_MODULE = `import { defineFlow } from ${JSON.stringify(RUNS)};
const object = (properties, required = Object.keys(properties)) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const N = object({ n: { type: 'integer' } });
export const flows = [
  defineFlow({
    name: 'approval_flow',
    version: 'v1',
    description: 'asks once',
    inputSchema: N,
    resumeSchema: object({ ok: { type: 'boolean' } }),
    graph: {
      start: 'add',
      vertices: {
        add: { run: ({ state }) => ({ n: state.n + 1 }), next: 'ask' },
        ask: { run: ({ resume, interrupt }) => { if (resume === undefined) interrupt('approve?'); }, next: 'done' },
        done: { run: ({ state }) => ({ n: state.n + 10 }) },
      },
    },
  }),
  defineFlow({
    name: 'approval_flow',
    version: 'v2',
    description: 'asks once, with a note',
    inputSchema: N,
    resumeSchema: object({ approved: { type: 'boolean' } }),
    stateSchema: object({ n: { type: 'integer' }, note: { type: 'string' } }),
    upgrades: [{ from: 'v1', vertices: { ask: 'review' }, state: (old) => ({ n: Number(old.n), note: 'from v1' }) }],
    graph: {
      start: 'review',
      vertices: {
        review: { run: ({ resume, interrupt }) => { if (resume === undefined) interrupt('review?'); }, next: 'finish' },
        finish: { run: ({ state }) => ({ n: state.n + 100 }) },
      },
    },
  }),
  defineFlow({
    name: 'event_flow',
    version: 'v1',
    description: 'waits for an event',
    inputSchema: N,
    graph: {
      start: 'wait',
      vertices: { wait: { run: async ({ waitForEvent }) => ({ n: (await waitForEvent('go'))?.n ?? -1 }) } },
    },
  }),
  defineFlow({
    name: 'fragile_flow',
    version: 'v1',
    description: 'a broken edge',
    inputSchema: N,
    resumeSchema: object({ ok: { type: 'boolean' } }),
    graph: {
      start: 'a',
      vertices: {
        a: { run: ({ state }) => ({ n: state.n + 1 }), next: 'b' },
        b: { run: ({ state }) => ({ n: state.n + 1 }), next: () => (globalThis.rimthanTestEdgeBroken ? 'nowhere' : 'c') },
        c: { run: ({ state, resume, interrupt }) => { if (resume === undefined) interrupt('check c?'); return { n: state.n + 1 }; } },
      },
    },
  }),
];
`;

declare global {
  var rimthanTestEdgeBroken: boolean | undefined;
}

describe('rimthan runs upgrade and restart', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-runs-operator-'));
  const flowsPath = join(work, 'flows.mjs');
  const file = join(work, 'runs.db');
  const storeSpec = `sqlite:${file}`;
  const session = 'ops';
  let store: SqliteRunStore;
  let worker: Supervisor;

  before(async () => {
    writeFileSync(flowsPath, FLOWS_MODULE);
    const { flows } = (await import(pathToFileURL(flowsPath).href)) as { flows: FlowSpec<never, never>[] };
    const catalog = new FlowCatalog();
    for (const flow of flows) catalog.register(flow);
    store = new SqliteRunStore(file);
    await store.open();
    // A short lease: the worker polls for runs an operator command made runnable every leaseMs/2.
    worker = new Supervisor({ store, catalog, leaseMs: 1000 });
    await worker.start();
  });
  after(async () => {
    await worker.stop();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function startRun(definitionName: string, input: JsonObject): Promise<string> {
    const outcome = await worker.forSession(session).startNew({
      definitionName,
      definitionVersion: 'v1',
      input,
      parentRunId: null,
      idempotencyKey: null,
      mintRunId: () => randomUUID(),
      now: () => new Date().toISOString(),
    });
    assert.equal(outcome.kind, 'started');
    return outcome.run.run_id;
  }

  async function until(runId: string, status: RunStatus): Promise<RunRecord> {
    const deadline = Date.now() + 20_000; // a hang guard, not a timing assertion
    for (;;) {
      const run = await store.getRunById(runId);
      if (run?.status === status) return run;
      if (Date.now() > deadline) throw new Error(`run ${runId} never reached ${status} (it is ${run?.status})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Runs the real command; returns its exit code, the parsed JSON summary on stdout (if any) and stderr. */
  async function operator(argv: string[]) {
    const io = captureIo(work);
    const code = await runCli([...argv, '--store', storeSpec, '--session', session, '--flows', flowsPath], io);
    const out = io.stdout.join('\n');
    return {
      code,
      summary: out === '' ? undefined : (JSON.parse(out) as Record<string, unknown>),
      err: io.stderr.join('\n'),
    };
  }

  test('upgrade moves an interrupted run to v2; the worker resumes it on v2 and completes it', async () => {
    const runId = await startRun('approval_flow', { n: 0 });
    const paused = await until(runId, 'interrupted');

    const missingTo = await operator(['runs', 'upgrade', runId]);
    assert.equal(missingTo.code, 2);
    assert.match(missingTo.err, /--to VERSION is required/);
    const unknown = await operator(['runs', 'upgrade', runId, '--to', 'v9']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.err, 'rimthan: unknown_definition: flow approval_flow@v9 is not registered');
    assert.deepEqual(await store.getRunById(runId), paused, 'a refused upgrade writes nothing');

    const upgraded = await operator(['runs', 'upgrade', runId, '--to', 'v2']);
    assert.equal(upgraded.code, 0, upgraded.err);
    assert.equal(upgraded.summary?.['definition_version'], 'v2');
    assert.equal(upgraded.summary?.['run_status'], 'interrupted');
    assert.equal(upgraded.summary?.['checkpoint_revision'], paused.checkpoint_revision + 1);
    assert.match(String(upgraded.summary?.['status_summary']), /review\?|upgraded/);

    const again = await operator(['runs', 'upgrade', runId, '--to', 'v2']);
    assert.equal(again.code, 1, 'a run already on v2 is not upgraded twice');

    await worker.forSession(session).resume(runId, { approved: true });
    await until(runId, 'completed');
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 101, note: 'from v1' });
  });

  test('restart runs a failed run again from a completed vertex once the flow is fixed', async () => {
    globalThis.rimthanTestEdgeBroken = true;
    const runId = await startRun('fragile_flow', { n: 0 });
    const failed = await until(runId, 'failed');

    const never = await operator(['runs', 'restart', runId, '--from', 'c']);
    assert.equal(never.code, 1);
    assert.equal(never.err, 'rimthan: conflict: vertex c never completed in this run');
    const notAVertex = await operator(['runs', 'restart', runId, '--from', 'zz']);
    assert.equal(notAVertex.code, 1);
    assert.equal(notAVertex.err, 'rimthan: invalid_arguments: zz is not a vertex of fragile_flow@v1');

    globalThis.rimthanTestEdgeBroken = false;
    const restarted = await operator(['runs', 'restart', runId, '--from', 'b']);
    assert.equal(restarted.code, 0, restarted.err);
    assert.equal(restarted.summary?.['checkpoint_revision'], failed.checkpoint_revision + 1);
    assert.match(String(restarted.summary?.['status_summary']), /restarted from b by an operator/);
    const paused = await until(runId, 'interrupted');
    assert.equal(paused.interrupt?.vertex, 'c');
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 2 });
  });

  test('restart takes an interrupted run back to an earlier vertex', async () => {
    globalThis.rimthanTestEdgeBroken = false;
    const runId = await startRun('fragile_flow', { n: 10 });
    const paused = await until(runId, 'interrupted');
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 12 });

    const restarted = await operator(['runs', 'restart', runId, '--from', 'a']);
    assert.equal(restarted.code, 0, restarted.err);
    assert.equal(restarted.summary?.['checkpoint_revision'], paused.checkpoint_revision + 1);
    // a runs again on the input's state; the run comes back to c's question, with the state rebuilt from a.
    const again = await until(runId, 'interrupted');
    assert.ok(again.checkpoint_revision > paused.checkpoint_revision + 1);
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 12 });
    await worker.forSession(session).resume(runId, { ok: true });
    await until(runId, 'completed');
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 13 });
  });

  test('send-event wakes a run waiting for that event; an event id is delivered once', async () => {
    const runId = await startRun('event_flow', { n: 0 });
    await until(runId, 'running');
    const send = async (argv: string[]) => {
      const io = captureIo(work);
      const code = await runCli(['runs', 'send-event', ...argv, '--store', storeSpec, '--session', session], io);
      const out = io.stdout.join('\n');
      return { code, out: out === '' ? undefined : (JSON.parse(out) as JsonObject), err: io.stderr.join('\n') };
    };
    const noId = await send([runId, 'go']);
    assert.equal(noId.code, 2);
    assert.match(noId.err, /--event-id ID is required/);
    const badPayload = await send([runId, 'go', '--event-id', 'e1', '--payload', '[1]']);
    assert.equal(badPayload.code, 2);
    assert.match(badPayload.err, /--payload must be a JSON object/);
    const sent = await send([runId, 'go', '--event-id', 'e1', '--payload', '{"n":7}']);
    assert.equal(sent.code, 0, sent.err);
    assert.deepEqual(sent.out, { run_id: runId, name: 'go', event_id: 'e1', delivered: true });
    const repeat = await send([runId, 'go', '--event-id', 'e1', '--payload', '{"n":8}']);
    assert.equal(repeat.out?.['delivered'], false);
    await until(runId, 'completed');
    assert.deepEqual((await store.latestCheckpoint(runId))?.state['flow_state'], { n: 7 });
    const late = await send([runId, 'go', '--event-id', 'e2']);
    assert.equal(late.code, 1);
    assert.equal(late.err, 'rimthan: conflict: run has ended; it takes no events');
  });

  test('a run of another session is not found, and nothing is written', async () => {
    const runId = await startRun('approval_flow', { n: 5 });
    const paused = await until(runId, 'interrupted');
    const io = captureIo(work);
    const code = await runCli(
      ['runs', 'upgrade', runId, '--to', 'v2', '--store', storeSpec, '--session', 'guest', '--flows', flowsPath],
      io,
    );
    assert.equal(code, 1);
    assert.equal(io.stderr.join('\n'), 'rimthan: not_found: run not found');
    assert.deepEqual(await store.getRunById(runId), paused);
  });
});
