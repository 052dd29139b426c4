import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isRimthanError } from '../../../src/core/errors.js';
import { counterFlow } from '../fixtures/test-flows.js';
import { activityEventId } from '../../../src/runs/executor/event-id.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import {
  closedSchema,
  createPendingRun,
  deferred,
  engineFixture,
  fullHistory,
  tempStore,
  waitFor,
  waitForStatus,
} from '../helpers.js';

type N = { n: number };
const N_SCHEMA = closedSchema({ n: { type: 'integer' } });

function code(expected: string) {
  return (e: unknown) => isRimthanError(e) && e.code === expected;
}

describe('start is acknowledged at the durable seed', () => {
  test('start returns after the durable seed while the first vertex is still blocked', async () => {
    const entered = deferred();
    const release = deferred();
    const gated = defineFlow<N>({
      name: 'gated_flow',
      version: 'v1',
      description: 'first vertex waits for the test',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'wait',
        vertices: {
          wait: {
            run: async ({ state }) => {
              entered.resolve();
              await release.promise;
              return { n: state.n + 1 };
            },
            next: 'after',
          },
          after: { run: ({ state }) => ({ n: state.n * 10 }) },
        },
      },
    });
    const f = await engineFixture((c) => c.register(gated));
    try {
      const pending = await f.pending('gated_flow', { n: 1 });
      assert.equal(pending.checkpoint_revision, -1);
      const ack = await f.session.start(pending.run_id);
      assert.equal(ack.status, 'running');
      assert.equal(ack.checkpoint_revision, 0);
      assert.equal(ack.activity_cursor, 1);
      // Durable: another connection to the database file already sees the seed.
      assert.deepEqual(f.checkpointRevisions(pending.run_id), [0]);

      await entered.promise;
      const mid = await f.store.getRunById(pending.run_id);
      assert.equal(mid?.status, 'running');
      assert.equal(mid?.checkpoint_revision, 0);
      const seed = await f.store.latestCheckpoint(pending.run_id);
      assert.equal(seed?.revision, 0);
      assert.deepEqual(seed?.state['flow_state'], { n: 1 });
      assert.deepEqual(
        (await fullHistory(f.store, pending.run_id)).map((e) => e.kind),
        ['run_started'],
      );

      release.resolve();
      const done = await waitForStatus(f.store, pending.run_id, 'completed');
      assert.equal(done.checkpoint_revision, 2);
      assert.deepEqual((await f.store.latestCheckpoint(pending.run_id))?.state['flow_state'], { n: 20 });
    } finally {
      release.resolve();
      await f.close();
    }
  });

  test('start never waits for a free worker: with every slot busy the seed is acknowledged and the run waits as pending', async () => {
    const release = deferred();
    let started = 0;
    const busy = defineFlow<N>({
      name: 'busy_flow',
      version: 'v1',
      description: 'holds its worker',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'hold',
        vertices: {
          hold: {
            run: async () => {
              started++;
              await release.promise;
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(busy), { concurrency: 1 });
    try {
      const first = await f.started('busy_flow', { n: 1 });
      await waitFor(() => (started === 1 ? true : undefined));
      const second = await f.started('busy_flow', { n: 2 });
      assert.equal(second.status, 'pending', 'admission control: beyond its slots a worker queues the run durably');
      assert.equal(second.checkpoint_revision, 0);
      assert.match(second.status_summary, /^queued/);
      assert.equal((await f.store.getRunById(second.run_id))?.status, 'pending');
      assert.equal(started, 1, 'the second run is queued, not executing');
      release.resolve();
      await waitForStatus(f.store, first.run_id, 'completed');
      await waitForStatus(f.store, second.run_id, 'completed');
      assert.equal(started, 2);
      const history = await f.store.history(second.run_id, { limit: 10 });
      assert.deepEqual(
        history.map((e) => [e.kind, e.run_status]),
        [
          ['run_started', 'pending'],
          ['vertex_completed', 'completed'],
          ['run_completed', 'completed'],
        ],
      );
    } finally {
      release.resolve();
      await f.close();
    }
  });

  test('checkpoint revisions run 0..N without gaps and history mirrors them with deterministic event ids', async () => {
    const f = await engineFixture((c) => c.register(counterFlow));
    try {
      const ack = await f.started('counter_flow', { count: 5 });
      const done = await waitForStatus(f.store, ack.run_id, 'completed');
      assert.deepEqual(f.checkpointRevisions(ack.run_id), [0, 1, 2, 3]);
      assert.equal(done.checkpoint_revision, 3);
      assert.equal(done.activity_cursor, 5);
      assert.equal(done.status_summary, 'completed');
      const final = await f.store.latestCheckpoint(ack.run_id);
      assert.deepEqual(final?.state['flow_state'], { count: 7, done: true });
      assert.deepEqual(final?.state['completed_vertices'], ['increment', 'increment_again', 'finish']);
      const history = await fullHistory(f.store, ack.run_id);
      assert.deepEqual(
        history.map((e) => [
          e.revision,
          e.ordinal,
          e.kind,
          e.vertex_id ?? null,
          e.completed_vertices,
          e.total_vertices,
        ]),
        [
          [0, 0, 'run_started', null, 0, 3],
          [1, 0, 'vertex_completed', 'increment', 1, 3],
          [2, 0, 'vertex_completed', 'increment_again', 2, 3],
          [3, 0, 'vertex_completed', 'finish', 3, 3],
          [3, 1, 'run_completed', null, 3, 3],
        ],
      );
      assert.equal(history[1]?.vertex_label, 'Increment');
      for (const e of history) {
        const expected = activityEventId({
          session_id: f.sessionId,
          run_id: ack.run_id,
          kind: e.kind,
          revision: e.revision,
          vertex_id: e.vertex_id,
          ordinal: e.ordinal,
        });
        assert.equal(e.event_id, expected);
      }
      assert.deepEqual(
        history.map((e) => e.run_status),
        ['running', 'running', 'running', 'completed', 'completed'],
      );
    } finally {
      await f.close();
    }
  });

  for (const mode of [
    { pipelineDepth: 1, label: 'pipelineDepth 1: the previous vertex is durable when the next one starts' },
    { pipelineDepth: 16, label: 'pipelined: the previous vertex becomes durable while the next one runs' },
  ]) {
    test(`history is readable mid-run and checkpoint_revision / activity_cursor advance while the run runs (${mode.label})`, async () => {
      const gates = [deferred(), deferred(), deferred()];
      const entered = [deferred(), deferred(), deferred()];
      const step =
        (i: number) =>
        async ({ state }: { state: Readonly<N> }) => {
          entered[i]?.resolve();
          await gates[i]?.promise;
          return { n: state.n + 1 };
        };
      const stepped = defineFlow<N>({
        name: 'stepped_flow',
        version: 'v1',
        description: 'three gated steps',
        inputSchema: N_SCHEMA,
        graph: {
          start: 's0',
          vertices: { s0: { run: step(0), next: 's1' }, s1: { run: step(1), next: 's2' }, s2: { run: step(2) } },
        },
      });
      const f = await engineFixture((c) => c.register(stepped), { pipelineDepth: mode.pipelineDepth });
      try {
        const ack = await f.started('stepped_flow', { n: 0 });
        const seen: [number, number, number][] = [];
        for (let i = 0; i < 3; i++) {
          await entered[i]?.promise;
          // The vertex is blocked right now: history must answer without waiting for it.
          const read = async (): Promise<[number, number, number]> => {
            const page = await f.session.history(ack.run_id, { limit: 100 });
            const record = await f.store.getRunById(ack.run_id);
            return [page?.length ?? -1, record?.checkpoint_revision ?? -1, record?.activity_cursor ?? -1];
          };
          // Pipelined, the previous vertex's commit may still be queued for the next group commit: wait for it (the
          // vertex stays blocked meanwhile). With depth 1 it must already be durable.
          seen.push(
            mode.pipelineDepth === 1
              ? await read()
              : await waitFor(async () => ((await read())[1] === i ? read() : undefined)),
          );
          gates[i]?.resolve();
        }
        await waitForStatus(f.store, ack.run_id, 'completed');
        assert.deepEqual(seen, [
          [1, 0, 1],
          [2, 1, 2],
          [3, 2, 3],
        ]);
        // Paging with both cursors is lossless.
        const first = await f.session.history(ack.run_id, { limit: 2 });
        const last = first?.at(-1);
        assert.ok(last !== undefined);
        const rest = await f.session.history(ack.run_id, {
          limit: 100,
          after_revision: last.revision,
          after_event_id: last.event_id,
        });
        assert.deepEqual(
          [...(first ?? []), ...(rest ?? [])].map((e) => e.kind),
          ['run_started', 'vertex_completed', 'vertex_completed', 'vertex_completed', 'run_completed'],
        );
      } finally {
        for (const g of gates) g.resolve();
        await f.close();
      }
    });
  }

  test('a controller only sees its own session: another session gets not_found / undefined', async () => {
    const f = await engineFixture((c) => c.register(counterFlow));
    try {
      const mine = await f.pending('counter_flow', { count: 1 });
      const other = f.supervisor.forSession(randomUUID());
      await assert.rejects(other.start(mine.run_id), code('not_found'));
      assert.equal((await f.store.getRunById(mine.run_id))?.status, 'pending');
      await f.session.start(mine.run_id);
      await waitForStatus(f.store, mine.run_id, 'completed');
      assert.equal(await other.history(mine.run_id, { limit: 10 }), undefined);
      await assert.rejects(other.cancel(mine.run_id, ''), code('not_found'));
      await assert.rejects(other.resume(mine.run_id, {}), code('not_found'));
      await assert.rejects(f.session.start(randomUUID()), code('not_found'));
      assert.equal(other.sessionId === f.sessionId, false);
    } finally {
      await f.close();
    }
  });

  test('starting a seeded run again returns it without a second seed', async () => {
    const f = await engineFixture((c) => c.register(counterFlow));
    try {
      const ack = await f.started('counter_flow', { count: 1 });
      await waitForStatus(f.store, ack.run_id, 'completed');
      const again = await f.session.start(ack.run_id);
      assert.equal(again.status, 'completed');
      assert.deepEqual(f.checkpointRevisions(ack.run_id), [0, 1, 2, 3]);
    } finally {
      await f.close();
    }
  });

  test('start fails closed: supervisor not running → unavailable; unknown pinned definition → run failed', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(counterFlow);
    const supervisor = new Supervisor({ store: temp.store, catalog });
    try {
      const sessionId = randomUUID();
      const session = supervisor.forSession(sessionId);
      const run = await createPendingRun(temp.store, {
        sessionId,
        name: 'counter_flow',
        version: 'v1',
        input: { count: 1 },
      });
      await assert.rejects(session.start(run.run_id), code('unavailable'));
      assert.equal((await temp.store.getRunById(run.run_id))?.checkpoint_revision, -1);

      await supervisor.start();
      const ghost = await createPendingRun(temp.store, {
        sessionId,
        name: 'counter_flow',
        version: 'v9',
        input: { count: 1 },
      });
      await assert.rejects(session.start(ghost.run_id), code('unknown_definition'));
      const failed = await temp.store.getRunById(ghost.run_id);
      assert.equal(failed?.status, 'failed');
      assert.deepEqual(
        (await fullHistory(temp.store, ghost.run_id)).map((e) => e.kind),
        ['run_failed'],
      );

      const invalid = await createPendingRun(temp.store, {
        sessionId,
        name: 'counter_flow',
        version: 'v1',
        input: { count: 'x' },
      });
      await assert.rejects(session.start(invalid.run_id), code('invalid_input'));
      assert.equal((await temp.store.getRunById(invalid.run_id))?.status, 'failed');
      await supervisor.stop();
      await assert.rejects(session.start(run.run_id), code('unavailable'));
    } finally {
      await supervisor.stop();
      await temp.cleanup();
    }
  });
});
