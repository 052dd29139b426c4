import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../src/core/clock.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { sendEvent } from '../../../src/runs/operator/send-event.js';
import type { RunStore } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { counterFlow } from '../fixtures/test-flows.js';
import { createPendingRun, tempStore, waitFor, waitForStatus } from '../helpers.js';

const HOUR = 3_600_000;

/** A clock a test moves forward. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) };
}

/** The store, counting the sweeps and their prune calls (methods bound to the store: it has private fields). */
function counted(store: RunStore): { store: RunStore; prunes: () => number; sweeps: () => number } {
  let prunes = 0;
  let sweeps = 0;
  const proxy = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'pruneRuns') {
        return (...args: Parameters<RunStore['pruneRuns']>) => {
          prunes++;
          return target.pruneRuns(...args);
        };
      }
      if (key === 'finishedDefinitions') {
        return () => {
          sweeps++;
          return target.finishedDefinitions();
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, prunes: () => prunes, sweeps: () => sweeps };
}

const rejectsWith = (code: string, pattern: RegExp) => (error: unknown) =>
  isRimthanError(error) && error.code === code && pattern.test(error.message);

describe('retention sweep', () => {
  test('a running supervisor deletes finished runs once the clock passes their age, and keeps live ones', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(counterFlow);
    const clock = movableClock();
    const { store, prunes } = counted(temp.store);
    const pruned: [string, number][] = [];
    const sessionId = randomUUID();
    const supervisor = new Supervisor({
      store,
      catalog,
      clock,
      leaseMs: 2000,
      retention: { default: { maxAgeMs: HOUR }, intervalMs: 20 },
      onPruned: (flow, runs) => pruned.push([flow, runs]),
    });
    try {
      await supervisor.start();
      const done: string[] = [];
      for (let i = 0; i < 3; i++) {
        const run = await createPendingRun(temp.store, {
          sessionId,
          name: 'counter_flow',
          version: 'v1',
          input: { count: i },
        });
        await supervisor.forSession(sessionId).start(run.run_id);
        await waitForStatus(temp.store, run.run_id, 'completed');
        done.push(run.run_id);
      }
      const seen = prunes();
      await waitFor(() => (prunes() >= seen + 3 ? true : undefined));
      for (const id of done) assert.ok(await temp.store.getRunById(id), 'a run younger than maxAgeMs is kept');
      clock.advance(2 * HOUR);
      for (const id of done)
        await waitFor(async () => ((await temp.store.getRunById(id)) === undefined ? true : undefined));
      await waitFor(() => (pruned.length > 0 ? true : undefined));
      assert.deepEqual(pruned, [['counter_flow', 3]]);
      // Late operator actions on a pruned run: not found, cleanly.
      await assert.rejects(supervisor.forSession(sessionId).cancel(done[0]!, 'late'), rejectsWith('not_found', /./));
      await assert.rejects(
        sendEvent(temp.store, clock, { runId: done[0]!, name: 'go', eventId: 'e1', payload: {} }),
        rejectsWith('not_found', /./),
      );
    } finally {
      await supervisor.stop();
      await temp.cleanup();
    }
  });

  test('a flow rule overrides the default; {} keeps that flow forever', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(counterFlow);
    const clock = movableClock();
    const { store, prunes, sweeps } = counted(temp.store);
    const sessionId = randomUUID();
    const supervisor = new Supervisor({
      store,
      catalog,
      clock,
      leaseMs: 2000,
      retention: { default: { keepLast: 0 }, flows: { counter_flow: {} }, intervalMs: 20 },
    });
    try {
      await supervisor.start();
      const run = await createPendingRun(temp.store, {
        sessionId,
        name: 'counter_flow',
        version: 'v1',
        input: { count: 1 },
      });
      await supervisor.forSession(sessionId).start(run.run_id);
      await waitForStatus(temp.store, run.run_id, 'completed');
      clock.advance(100 * HOUR);
      const seen = sweeps();
      await waitFor(() => (sweeps() >= seen + 3 ? true : undefined));
      assert.equal(prunes(), 0, 'no prune of a flow kept forever');
      assert.ok(await temp.store.getRunById(run.run_id));
    } finally {
      await supervisor.stop();
      await temp.cleanup();
    }
  });

  test('retention options are checked with errors that name the field', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    try {
      const cases: [unknown, RegExp][] = [
        [{}, /needs a default rule or at least one flow rule/],
        [{ default: {} }, /retention\.default needs maxAgeMs or keepLast/],
        [{ default: { maxAgeMs: 0 } }, /retention\.default\.maxAgeMs must be an integer/],
        [{ default: { keepLast: 1.5 } }, /retention\.default\.keepLast must be an integer/],
        [{ default: { keeplast: 3 } }, /unknown field/],
        [{ flows: { '': { keepLast: 1 } } }, /names must be 1\.\.256 bytes/],
        [{ flows: { a: { maxAgeMs: -1 } } }, /retention\.flows\["a"\]\.maxAgeMs/],
        [{ default: { keepLast: 1 }, intervalMs: 1 }, /retention\.intervalMs must be an integer/],
      ];
      for (const [retention, message] of cases) {
        assert.throws(
          () => new Supervisor({ store: temp.store, catalog, retention: retention as never }),
          rejectsWith('invalid_arguments', message),
          String(message),
        );
      }
    } finally {
      await temp.cleanup();
    }
  });
});
