/**
 * Durable waits through the supervisor on SQLite: a sleeping run holds no slot and wakes (also on a fresh supervisor
 * after a restart), a cancel wakes it into `cancelled`, events arrive at most once per id and in order, a child run's
 * result reaches its parent, its failure reaches the parent's error route, and cancelling a parent cancels its child.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/json.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { sendEvent } from '../../../src/runs/operator/send-event.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { systemClock } from '../../../src/core/clock.js';
import { closedSchema, engineFixture, fullHistory, waitFor, waitForStatus } from '../helpers.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { approvalEventsFlow, doubleFlow, longChildFlow, napFlow, parentFlow } from '../fixtures/wait-flows.js';

async function flowState(store: SqliteRunStore, runId: string): Promise<JsonObject> {
  return (await store.latestCheckpoint(runId))?.state['flow_state'] as JsonObject;
}

describe('durable timers', () => {
  test('a sleeping run is running, holds no slot, and completes when its timer is due', async () => {
    const f = await engineFixture((c) => c.register(napFlow), { concurrency: 1 });
    try {
      const ack = await f.started('nap_flow', { ms: 300 });
      const parked = await waitFor(async () => {
        const r = await f.store.getRunById(ack.run_id);
        const asleep = r !== undefined && r.status_summary.startsWith('sleeping until');
        // Parked: the execution let go of its slot.
        return asleep && f.supervisor.activeRuns === 0 ? r : undefined;
      });
      assert.equal(parked.status, 'running');
      // The one slot is free: another run starts and completes while the first sleeps.
      const other = await f.started('nap_flow', { ms: 0 });
      await waitForStatus(f.store, other.run_id, 'completed');
      assert.equal((await f.store.getRunById(ack.run_id))?.status, 'running');
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal((await flowState(f.store, ack.run_id))['woke'], true);
      const history = await fullHistory(f.store, ack.run_id);
      const nap = history.find((e) => e.kind === 'vertex_completed' && e.vertex_id === 'nap');
      assert.match(nap?.message ?? '', /^waited for timer until \d{4}-/);
      assert.deepEqual(
        history.map((e) => e.kind),
        ['run_started', 'vertex_completed', 'vertex_completed', 'run_completed'],
      );
    } finally {
      await f.close();
    }
  });

  test('a timer set before a restart wakes the run on the next supervisor', async () => {
    const f = await engineFixture((c) => c.register(napFlow));
    try {
      const ack = await f.started('nap_flow', { ms: 400 });
      await waitFor(async () =>
        (await f.store.getRunById(ack.run_id))?.status_summary.startsWith('sleeping') ? 1 : undefined,
      );
      await f.supervisor.stop();
      await f.store.close();
      const store = new SqliteRunStore(f.path);
      await store.open();
      const catalog = new FlowCatalog();
      catalog.register(napFlow);
      const next = new Supervisor({ store, catalog, leaseMs: 2000 });
      await next.start();
      try {
        await waitForStatus(store, ack.run_id, 'completed');
        assert.equal((await flowState(store, ack.run_id))['woke'], true);
      } finally {
        await next.stop();
        await store.close();
      }
      await f.store.open();
    } finally {
      await f.close();
    }
  });

  test('cancelling a sleeping run wakes it into cancelled', async () => {
    const f = await engineFixture((c) => c.register(napFlow));
    try {
      const ack = await f.started('nap_flow', { ms: 3_600_000 });
      await waitFor(async () =>
        (await f.store.getRunById(ack.run_id))?.status_summary.startsWith('sleeping') ? 1 : undefined,
      );
      await f.session.cancel(ack.run_id, 'no longer needed');
      const done = await waitForStatus(f.store, ack.run_id, 'cancelled');
      assert.equal(done.status_summary, 'no longer needed');
    } finally {
      await f.close();
    }
  });
});

describe('events', () => {
  test('an event wakes the run; the same event id is delivered once; events of a name arrive in order', async () => {
    const f = await engineFixture((c) => c.register(approvalEventsFlow));
    try {
      const ack = await f.started('approval_events', { timeoutMs: 3_600_000 });
      await waitFor(async () =>
        (await f.store.getRunById(ack.run_id))?.status_summary.startsWith('waiting for event approval') ? 1 : undefined,
      );
      const send = (name: string, eventId: string, payload: JsonObject) =>
        sendEvent(f.store, systemClock, { runId: ack.run_id, sessionId: f.sessionId, name, eventId, payload });
      assert.equal(await send('approval', 'e-1', { by: 'ana' }), 'delivered');
      assert.equal(await send('approval', 'e-1', { by: 'bob' }), 'duplicate');
      assert.equal(await send('note', 'n-1', { text: 'first' }), 'delivered');
      await waitForStatus(f.store, ack.run_id, 'completed');
      const state = await flowState(f.store, ack.run_id);
      assert.deepEqual(state['approval'], { by: 'ana' });
      assert.deepEqual(state['note'], { text: 'first' });
      await assert.rejects(send('note', 'n-2', {}), (e: unknown) => isRimthanError(e) && e.code === 'conflict');
      await assert.rejects(
        sendEvent(f.store, systemClock, { runId: ack.run_id, sessionId: 'another', name: 'note', eventId: 'x' }),
        (e: unknown) => isRimthanError(e) && e.code === 'not_found',
      );
      const history = await fullHistory(f.store, ack.run_id);
      const entry = history.find((e) => e.kind === 'vertex_completed');
      assert.equal(entry?.message, 'waited for event approval, event note');
      assert.ok(!JSON.stringify(history).includes('ana'), 'no payload in history');
    } finally {
      await f.close();
    }
  });

  test('a wait times out without an event', async () => {
    const f = await engineFixture((c) => c.register(approvalEventsFlow));
    try {
      const ack = await f.started('approval_events', { timeoutMs: 200 });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal((await flowState(f.store, ack.run_id))['approval'], null);
    } finally {
      await f.close();
    }
  });
});

describe('child runs', () => {
  const register = (c: FlowCatalog): void => {
    c.register(parentFlow);
    c.register(doubleFlow);
    c.register(longChildFlow);
  };

  test('a child run of the same session returns its final state to the parent', async () => {
    const f = await engineFixture(register);
    try {
      const ack = await f.started('parent_flow', { n: 21, fail: false, child: 'double_flow@v1' });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal((await flowState(f.store, ack.run_id))['result'], 42);
      const children = await f.store.childRuns(ack.run_id, { limit: 10 });
      assert.equal(children.length, 1);
      assert.equal(children[0]?.session_id, f.sessionId);
      assert.equal(children[0]?.status, 'completed');
      assert.equal(children[0]?.parent_run_id, ack.run_id);
    } finally {
      await f.close();
    }
  });

  test("a child's failure reaches the parent's error route as child_failed", async () => {
    const f = await engineFixture(register);
    try {
      const ack = await f.started('parent_flow', { n: 1, fail: true, child: 'double_flow@v1' });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal((await flowState(f.store, ack.run_id))['failure'], 'child_failed');
    } finally {
      await f.close();
    }
  });

  test('cancelling the parent cancels its child', async () => {
    const f = await engineFixture(register);
    try {
      const ack = await f.started('parent_flow', { n: 1, fail: false, child: 'long_child@v1' });
      const child = await waitFor(async () => (await f.store.childRuns(ack.run_id, { limit: 10 }))[0]);
      await waitFor(async () =>
        (await f.store.getRunById(ack.run_id))?.status_summary.startsWith('waiting for child') ? 1 : undefined,
      );
      await f.session.cancel(ack.run_id, 'stop');
      await waitForStatus(f.store, ack.run_id, 'cancelled');
      const ended = await waitForStatus(f.store, child.run_id, 'cancelled');
      assert.equal(ended.status_summary, 'parent run cancelled');
    } finally {
      await f.close();
    }
  });
});

describe('waits in parallel branches', () => {
  test('a wait in a parallel branch fails that branch with waits_unsupported', async () => {
    const branchy = defineFlow<{ n: number }, { n: number; a?: number; b?: string }>({
      name: 'branchy_waits',
      version: 'v1',
      description: 'a branch that tries to sleep',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      graph: {
        start: 'fork',
        vertices: {
          fork: { run: () => undefined, next: ['a', 'b'] },
          a: { writes: ['a'], run: () => ({ a: 1 }) },
          b: {
            writes: ['b'],
            run: async (ctx) => {
              await ctx.sleep(10);
              return { b: 'slept' };
            },
            onError: 'caught',
          },
          caught: { writes: ['b'], run: (ctx) => ({ b: ctx.failure?.code ?? 'none' }) },
        },
      },
    });
    const f = await engineFixture((c) => c.register(branchy));
    try {
      const ack = await f.started('branchy_waits', { n: 0 });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal((await flowState(f.store, ack.run_id))['b'], 'waits_unsupported');
    } finally {
      await f.close();
    }
  });
});
