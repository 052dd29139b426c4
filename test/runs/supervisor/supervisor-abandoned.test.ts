import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../src/core/clock.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { counterFlow } from '../fixtures/test-flows.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { createPendingRun, fullHistory, tempStore, waitForStatus } from '../helpers.js';

/** The system clock moved `ms` ahead: every run created now looks that old to the supervisor. */
function clockAhead(ms: number): Clock {
  return { now: () => new Date(Date.now() + ms) };
}

describe('abandoned starts', () => {
  test('a pending run whose seed never came is failed once older than abandonedStartMs; seeded runs are not', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(counterFlow);
    const sessionId = randomUUID();
    const input = { count: 1 };
    // Written by a process that died before the seed: two records, no checkpoint.
    const orphans = [
      await createPendingRun(temp.store, { sessionId, name: 'counter_flow', version: 'v1', input }),
      await createPendingRun(temp.store, { sessionId: randomUUID(), name: 'counter_flow', version: 'v1', input }),
    ];
    const supervisor = new Supervisor({ store: temp.store, catalog, leaseMs: 2000, clock: clockAhead(11 * 60_000) });
    try {
      await supervisor.start();
      for (const orphan of orphans) {
        const failed = await waitForStatus(temp.store, orphan.run_id, 'failed');
        assert.match(failed.status_summary, /never acknowledged/);
        assert.deepEqual(
          (await fullHistory(temp.store, orphan.run_id)).map((e) => [e.kind, e.revision]),
          [['run_failed', 0]],
          'one terminal entry at revision 0',
        );
      }
      // A run started now is seeded on the caller's path and runs to completion as usual.
      const fresh = await createPendingRun(temp.store, { sessionId, name: 'counter_flow', version: 'v1', input });
      await supervisor.forSession(sessionId).start(fresh.run_id);
      await waitForStatus(temp.store, fresh.run_id, 'completed');
    } finally {
      await supervisor.stop();
      await temp.cleanup();
    }
  });

  test('stop() waits for a sweep in progress, which writes nothing after the supervisor stopped', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(counterFlow);
    const sessionId = randomUUID();
    const orphans: string[] = [];
    for (let i = 0; i < 60; i++) {
      const run = await createPendingRun(temp.store, {
        sessionId,
        name: 'counter_flow',
        version: 'v1',
        input: { n: i },
      });
      orphans.push(run.run_id);
    }
    const errors: unknown[] = [];
    const supervisor = new Supervisor({
      store: temp.store,
      catalog,
      clock: clockAhead(11 * 60_000),
      onError: (error) => errors.push(error),
    });
    try {
      await supervisor.start();
      await supervisor.stop();
      const statuses = async () =>
        Promise.all(orphans.map(async (id) => (await temp.store.getRunById(id))?.status ?? 'missing'));
      const atStop = await statuses();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await statuses(), atStop, 'nothing changes once stop() has resolved');
      assert.deepEqual(errors, []);
    } finally {
      await temp.cleanup();
    }
  });

  test('abandonedStartMs must be an integer 1..2^31-1 or false', () => {
    const catalog = new FlowCatalog();
    for (const abandonedStartMs of [0, -1, 1.5, Number.NaN, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      assert.throws(
        () => new Supervisor({ store: undefined as never, catalog, abandonedStartMs }),
        (e: unknown) => isRimthanError(e) && e.code === 'invalid_arguments',
      );
    }
  });
});
