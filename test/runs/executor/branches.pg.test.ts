/**
 * Parallel branches, joins, dynamic fan-out and error routes, executed by a supervisor on both backends: branches run
 * concurrently, each commits on its own, the barrier merges in declaration order through reducers, a fan-out maps a
 * vertex over a list, a failure reaches its handler as {code, message}, a branch interrupt pauses the run and resume
 * re-runs only that branch.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../../src/core/json.js';
import { decodeCheckpoint } from '../../../src/runs/executor/checkpoint-state.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import type { FlowSpec } from '../../../src/runs/flow/types.js';
import type { RunRecord, RunStore } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, fullHistory, waitForStatus } from '../helpers.js';
import { twoStoreBackends } from '../support/two-stores.js';

const backends = twoStoreBackends('branches');
const N_SCHEMA = closedSchema({ n: { type: 'integer' } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Log = { n: number; log?: string[]; a?: number; b?: number; c?: number; total?: number };
const append = (current: string[] | undefined, update: string[]): string[] => [...(current ?? []), ...update];

interface Engine {
  readonly store: RunStore;
  started(name: string, input: JsonObject): Promise<RunRecord>;
  resume(runId: string, payload: JsonObject): Promise<void>;
  close(): Promise<void>;
}

async function engine(store: RunStore, flows: FlowSpec<JsonObject, JsonObject>[]): Promise<Engine> {
  const catalog = new FlowCatalog();
  for (const f of flows) catalog.register(f);
  const supervisor = new Supervisor({ store, catalog, leaseMs: 2000, concurrency: 4 });
  await supervisor.start();
  const sessionId = randomUUID();
  const session = supervisor.forSession(sessionId);
  return {
    store,
    async started(name, input) {
      const run = await createPendingRun(store, { sessionId, name, version: 'v1', input });
      return session.start(run.run_id);
    },
    async resume(runId, payload) {
      await session.resume(runId, payload);
    },
    close: () => supervisor.stop(),
  };
}

function asJson<I extends JsonObject, S extends JsonObject>(spec: FlowSpec<I, S>): FlowSpec<JsonObject, JsonObject> {
  return spec as unknown as FlowSpec<JsonObject, JsonObject>;
}

for (const backend of backends) {
  describe(`parallel branches: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('a fan-out runs its branches at once, commits each, and merges in declaration order at the join', async () => {
      let running = 0;
      let most = 0;
      const branch = (key: 'a' | 'b' | 'c', ms: number) => ({
        writes: [key, 'log'] as ('a' | 'b' | 'c' | 'log')[],
        run: async ({ state }: { state: Readonly<Log> }) => {
          running++;
          most = Math.max(most, running);
          await sleep(ms);
          running--;
          return { [key]: state.n, log: [key] };
        },
        next: 'join',
      });
      const flow = defineFlow<{ n: number }, Log>({
        name: 'fan_flow',
        version: 'v1',
        description: 'three branches and a join',
        inputSchema: N_SCHEMA,
        graph: {
          start: 'fork',
          reducers: { log: append },
          vertices: {
            fork: { run: ({ state }) => ({ n: state.n + 1, log: ['fork'] }), next: ['a', 'b', 'c'] },
            // The slowest branch is declared first: the merge order must not follow completion order.
            a: branch('a', 60),
            b: branch('b', 5),
            c: branch('c', 30),
            join: { run: ({ state }) => ({ total: (state.a ?? 0) + (state.b ?? 0) + (state.c ?? 0) }) },
          },
        },
      });
      const opened = await backend.open();
      const e = await engine(opened.a, [asJson(flow)]);
      try {
        const run = await e.started('fan_flow', { n: 1 });
        await waitForStatus(e.store, run.run_id, 'completed');
        assert.equal(most, 3, 'the three branches ran at the same time');
        const cp = await e.store.latestCheckpoint(run.run_id);
        assert.deepEqual(cp?.state['flow_state'], {
          n: 2,
          log: ['fork', 'a', 'b', 'c'],
          a: 2,
          b: 2,
          c: 2,
          total: 6,
        });
        const history = await fullHistory(e.store, run.run_id);
        const completed = history.filter((h) => h.kind === 'vertex_completed');
        // Each branch committed on its own, in completion order; the last one carried the barrier.
        assert.deepEqual(
          completed.map((h) => h.vertex_id),
          ['fork', 'b', 'c', 'a', 'join'],
        );
        assert.deepEqual(
          completed.map((h) => h.completed_vertices),
          [1, 2, 3, 4, 5],
        );
        assert.equal(new Set(completed.map((h) => h.revision)).size, 5, 'one checkpoint revision per branch');
        assert.equal(history.at(-1)?.kind, 'run_completed');
        assert.ok(history.every((h) => h.total_vertices === 5));
      } finally {
        await e.close();
        await opened.cleanup();
      }
    });

    test('forEach maps a vertex over a list from the state; results merge in item order', async () => {
      type S = { items: number[]; squares?: number[] };
      const seen: number[] = [];
      const flow = defineFlow<{ items: number[] }, S>({
        name: 'map_flow',
        version: 'v1',
        description: 'square every item',
        inputSchema: closedSchema({ items: { type: 'array', items: { type: 'integer' } } }),
        graph: {
          start: 'square',
          reducers: { squares: (current, update) => [...(current ?? []), ...update] },
          vertices: {
            square: {
              forEach: (state) => state.items,
              maxItems: 8,
              writes: ['squares'],
              run: async ({ item, index }) => {
                const n = item as number;
                await sleep(40 - n * 5); // later items finish first
                seen.push(index ?? -1);
                return { squares: [n * n] };
              },
              next: 'done',
            },
            done: { run: () => undefined },
          },
        },
      });
      const opened = await backend.open();
      const e = await engine(opened.a, [asJson(flow)]);
      try {
        const run = await e.started('map_flow', { items: [1, 2, 3, 4, 5] });
        await waitForStatus(e.store, run.run_id, 'completed');
        assert.deepEqual(seen, [4, 3, 2, 1, 0], 'the instances completed in reverse order');
        const cp = await e.store.latestCheckpoint(run.run_id);
        assert.deepEqual(cp?.state['flow_state'], { items: [1, 2, 3, 4, 5], squares: [1, 4, 9, 16, 25] });

        const tooMany = await e.started('map_flow', { items: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
        const failed = await waitForStatus(e.store, tooMany.run_id, 'failed');
        assert.match(failed.status_summary, /fanned out to 9 items, more than its maxItems 8/);

        const none = await e.started('map_flow', { items: [] });
        await waitForStatus(e.store, none.run_id, 'completed');
        const noneHistory = await fullHistory(e.store, none.run_id);
        assert.deepEqual(
          noneHistory.filter((h) => h.kind === 'vertex_completed').map((h) => h.vertex_id),
          ['done'],
          'an empty fan-out is skipped to its own edges',
        );
      } finally {
        await e.close();
        await opened.cleanup();
      }
    });

    test('an error route hands {code, message} to its handler after the retries the predicate allows', async () => {
      type S = { n: number; handled?: string };
      let tries = 0;
      const failing = (code: string) => Object.assign(new Error(`service said no (${code})`), { code });
      const flow = defineFlow<{ n: number }, S>({
        name: 'route_flow',
        version: 'v1',
        description: 'an error route',
        inputSchema: N_SCHEMA,
        graph: {
          start: 'flaky',
          vertices: {
            flaky: {
              retry: { attempts: 3, backoffMs: 1, retryable: (e) => (e as { code?: string }).code === 'busy' },
              onError: 'recover',
              run: ({ state }) => {
                tries++;
                throw failing(state.n === 1 ? 'busy' : 'forbidden');
              },
              next: 'after',
            },
            recover: {
              run: ({ failure }) => ({ handled: `${failure?.vertex}:${failure?.code}:${failure?.message}` }),
            },
            after: { run: () => ({ n: -1 }) },
          },
        },
      });
      const opened = await backend.open();
      const e = await engine(opened.a, [asJson(flow)]);
      try {
        const busy = await e.started('route_flow', { n: 1 });
        await waitForStatus(e.store, busy.run_id, 'completed');
        assert.equal(tries, 3, 'a retryable error used every attempt');
        const cp = await e.store.latestCheckpoint(busy.run_id);
        assert.deepEqual(cp?.state['flow_state'], { n: 1, handled: 'flaky:busy:service said no (busy)' });
        const history = await fullHistory(e.store, busy.run_id);
        const routed = history.find((h) => h.vertex_id === 'flaky');
        assert.equal(routed?.message, 'failed (busy); handled by recover');
        assert.ok(!history.some((h) => h.message?.includes('service said no')), 'the message stays out of history');

        tries = 0;
        const fatal = await e.started('route_flow', { n: 2 });
        await waitForStatus(e.store, fatal.run_id, 'completed');
        assert.equal(tries, 1, 'a non-retryable error is not retried');
      } finally {
        await e.close();
        await opened.cleanup();
      }
    });

    test('a branch interrupt pauses the run after the others commit; resume re-runs only that branch', async () => {
      type S = { n: number; x?: number; y?: number; answer?: string };
      const runs: string[] = [];
      const flow = defineFlow<{ n: number }, S>({
        name: 'ask_flow',
        version: 'v1',
        description: 'a branch asks',
        inputSchema: N_SCHEMA,
        resumeSchema: closedSchema({ answer: { type: 'string' } }),
        graph: {
          start: 'fork',
          vertices: {
            fork: { run: () => undefined, next: ['x', 'ask', 'y'] },
            x: { writes: ['x'], run: () => (runs.push('x'), { x: 1 }) },
            ask: {
              writes: ['answer'],
              run: ({ resume, interrupt }) => {
                runs.push('ask');
                if (resume === undefined) interrupt('which one?');
                return { answer: resume?.['answer'] as string };
              },
            },
            y: { writes: ['y'], run: async () => (await sleep(20), runs.push('y'), { y: 2 }) },
          },
        },
      });
      const opened = await backend.open();
      const e = await engine(opened.a, [asJson(flow)]);
      try {
        const run = await e.started('ask_flow', { n: 0 });
        const paused = await waitForStatus(e.store, run.run_id, 'interrupted');
        assert.equal(paused.interrupt?.vertex, 'ask');
        const before = decodeCheckpoint((await e.store.latestCheckpoint(run.run_id))?.state ?? {});
        assert.deepEqual(before?.completed_vertices, ['fork', 'x', 'y'], 'the other branches committed first');
        await e.resume(run.run_id, { answer: 'left' });
        await waitForStatus(e.store, run.run_id, 'completed');
        assert.deepEqual([...runs].sort(), ['ask', 'ask', 'x', 'y'], 'only the interrupted branch ran again');
        const cp = await e.store.latestCheckpoint(run.run_id);
        assert.deepEqual(cp?.state['flow_state'], { n: 0, x: 1, answer: 'left', y: 2 });
      } finally {
        await e.close();
        await opened.cleanup();
      }
    });

    test('two branches writing one key without a reducer behind a conditional edge fail the run', async () => {
      type S = { n: number; k?: number };
      const flow = defineFlow<{ n: number }, S>({
        name: 'clash_flow',
        version: 'v1',
        description: 'a conflict only the barrier can see',
        inputSchema: N_SCHEMA,
        graph: {
          start: 'route',
          vertices: {
            route: { run: () => undefined, next: () => ['p', 'q'] },
            p: { run: () => ({ k: 1 }) },
            q: { run: () => ({ k: 2 }) },
          },
        },
      });
      const opened = await backend.open();
      const e = await engine(opened.a, [asJson(flow)]);
      try {
        const run = await e.started('clash_flow', { n: 0 });
        const failed = await waitForStatus(e.store, run.run_id, 'failed');
        assert.equal(failed.status_summary, 'branches p and q both wrote state key "k", which has no reducer');
      } finally {
        await e.close();
        await opened.cleanup();
      }
    });
  });
}
