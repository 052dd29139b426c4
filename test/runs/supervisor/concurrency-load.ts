/**
 * The load case shared by the SQLite and PostgreSQL supervisor tests of concurrency limits: 200 concurrent starts of
 * `limited_flow` over 4 keys, spread over the given workers. While they run, the store is sampled: never more than the
 * limit of one key's runs are `running`, and every run waiting for a slot reads as `pending`. In the end all 200 are
 * completed and no key ever had more than the limit of executions in flight (counted in memory, across workers).
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import { RunStatus, type RunRecord, type RunStore } from '../../../src/runs/store/types.js';
import type { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { LIMIT_PER_KEY, type ConcurrencyProbe } from '../fixtures/limited-flows.js';
import { waitFor, startRequest } from '../helpers.js';

export interface LoadWorker {
  readonly store: RunStore;
  readonly supervisor: Supervisor;
}

const RUNS = 200;
const KEYS = ['k0', 'k1', 'k2', 'k3'];

/** Starts the load, samples the store until every run completed, then checks the probe. */
export async function limitedLoad(workers: readonly LoadWorker[], probe: ConcurrencyProbe): Promise<void> {
  const session = randomUUID();
  const keyOf = new Map<string, string>();
  const outcomes = await Promise.all(
    Array.from({ length: RUNS }, async (_, i) => {
      const w = workers[i % workers.length] as LoadWorker;
      const key = KEYS[i % KEYS.length] as string;
      const outcome = await w.supervisor
        .forSession(session)
        .startNew(startRequest('limited_flow', 'v1', { key, n: i }));
      assert.equal(outcome.kind, 'started');
      const run = (outcome as { run: RunRecord }).run;
      keyOf.set(run.run_id, key);
      return run;
    }),
  );
  assert.ok(
    outcomes.every((r) => r.checkpoint_revision === 0),
    'every start is acknowledged with its seed',
  );
  const waiting = outcomes.filter((r) => r.status_summary === SLOT_WAIT_SUMMARY);
  assert.ok(waiting.length > 0, 'runs beyond the limit wait');
  assert.ok(
    waiting.every((r) => r.status === RunStatus.Pending),
    'a waiting run is pending',
  );
  const store = (workers[0] as LoadWorker).store;
  let sawWaitingPending = false;
  await waitFor(async () => {
    const runs = await store.listRuns(session, { limit: 1000 });
    const running = new Map<string, number>();
    for (const r of runs) {
      if (r.status_summary === SLOT_WAIT_SUMMARY && r.status !== RunStatus.Cancelled) {
        assert.equal(r.status, RunStatus.Pending, 'a run waiting for a slot reads as pending');
        sawWaitingPending = true;
      }
      if (r.status === RunStatus.Running) {
        const key = keyOf.get(r.run_id) ?? '';
        running.set(key, (running.get(key) ?? 0) + 1);
      }
    }
    for (const [key, n] of running) assert.ok(n <= LIMIT_PER_KEY, `key ${key}: ${n} running at once`);
    return runs.length === RUNS && runs.every((r) => r.status === RunStatus.Completed) ? true : undefined;
  }, 120_000);
  assert.ok(sawWaitingPending || waiting.length > 0);
  for (const key of KEYS) {
    const max = probe.max.get(key) ?? 0;
    assert.ok(max >= 1 && max <= LIMIT_PER_KEY, `key ${key}: at most ${LIMIT_PER_KEY} in flight (saw ${max})`);
  }
  assert.ok(probe.executions >= RUNS, 'every run executed');
}
