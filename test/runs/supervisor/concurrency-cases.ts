/**
 * Supervisor cases of concurrency limits shared by the SQLite and PostgreSQL tests: cancelling a waiting run (it works
 * and frees nothing), and waiting runs kept waiting over a restart, then run by the next supervisor. `open()` returns
 * a new, opened store on the same backing database each time (a restarted worker).
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import { RunStatus, type RunRecord, type RunStore } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import type { SessionController } from '../../../src/runs/supervisor/types.js';
import { Gate, gatedFlow } from '../fixtures/limited-flows.js';
import { waitForStatus, startRequest } from '../helpers.js';

export type OpenStore = () => Promise<RunStore & { close(): Promise<void> }>;

function gatedCatalog(gate: Gate): FlowCatalog {
  const c = new FlowCatalog();
  c.register(gatedFlow(gate));
  return c;
}

/** Starts a run of `gated_flow` (one at a time, flow wide) and answers its seeded record. */
export async function startGated(session: SessionController, n: number): Promise<RunRecord> {
  const outcome = await session.startNew(startRequest('gated_flow', 'v1', { n }));
  assert.equal(outcome.kind, 'started');
  return (outcome as { run: RunRecord }).run;
}

export async function cancelWaitingCase(open: OpenStore): Promise<void> {
  const store = await open();
  const gate = new Gate();
  const supervisor = new Supervisor({ store, catalog: gatedCatalog(gate), leaseMs: 1000 });
  await supervisor.start();
  try {
    const session = supervisor.forSession(randomUUID());
    const a = await startGated(session, 1);
    const b = await startGated(session, 2);
    const c = await startGated(session, 3);
    assert.deepEqual(
      [b, c].map((r) => [r.status, r.status_summary]),
      [
        [RunStatus.Pending, SLOT_WAIT_SUMMARY],
        [RunStatus.Pending, SLOT_WAIT_SUMMARY],
      ],
    );
    await waitForStatus(store, a.run_id, RunStatus.Running);
    const cancelled = await session.cancel(b.run_id, 'not needed');
    assert.equal(cancelled.record.status, RunStatus.Cancelled);
    assert.equal(cancelled.idempotent, false);
    const stillWaiting = await store.getRunById(c.run_id);
    assert.equal(stillWaiting?.status, RunStatus.Pending, 'the holder still holds the only slot');
    assert.equal(stillWaiting?.status_summary, SLOT_WAIT_SUMMARY);
    gate.open();
    await waitForStatus(store, a.run_id, RunStatus.Completed);
    await waitForStatus(store, c.run_id, RunStatus.Completed);
    assert.equal((await store.getRunById(b.run_id))?.status, RunStatus.Cancelled);
  } finally {
    await supervisor.stop();
    await store.close();
  }
}

export async function restartCase(open: OpenStore): Promise<void> {
  const store = await open();
  const first = new Supervisor({ store, catalog: gatedCatalog(new Gate()), leaseMs: 500, stopGraceMs: 20 });
  await first.start();
  const session = first.forSession(randomUUID());
  const runs = [await startGated(session, 1), await startGated(session, 2), await startGated(session, 3)];
  await waitForStatus(store, runs[0]?.run_id ?? '', RunStatus.Running);
  await first.stop(); // the gate never opened: the holder's vertex is aborted, its run stays running
  await store.close();
  const reopened = await open();
  const after = await Promise.all(runs.map((r) => reopened.getRunById(r.run_id)));
  assert.deepEqual(
    after.map((r) => r?.status),
    [RunStatus.Running, RunStatus.Pending, RunStatus.Pending],
  );
  const gate = new Gate();
  gate.open();
  const second = new Supervisor({ store: reopened, catalog: gatedCatalog(gate), leaseMs: 500 });
  await second.start();
  try {
    for (const r of runs) await waitForStatus(reopened, r.run_id, RunStatus.Completed);
  } finally {
    await second.stop();
    await reopened.close();
  }
}

/**
 * A holder that ended without its promotion (its worker died between the two writes): the next supervisor's sweep
 * admits the waiting run, which then runs.
 */
export async function sweepAfterCrashCase(open: OpenStore): Promise<void> {
  const store = await open();
  const first = new Supervisor({ store, catalog: gatedCatalog(new Gate()), leaseMs: 500, stopGraceMs: 20 });
  await first.start();
  const session = first.forSession(randomUUID());
  const holder = await startGated(session, 1);
  const waiting = await startGated(session, 2);
  await waitForStatus(store, holder.run_id, RunStatus.Running);
  await first.stop();
  // The end a dying worker wrote, without the promotion that follows it.
  const ended = await store.getRunById(holder.run_id);
  if (ended === undefined) throw new Error('holder missing');
  await store.commit({
    run_id: ended.run_id,
    expected_record_revision: ended.record_revision,
    patch: { status: RunStatus.Failed, status_summary: 'worker lost', updated_at: new Date().toISOString() },
  });
  assert.equal((await store.getRunById(waiting.run_id))?.status_summary, SLOT_WAIT_SUMMARY);
  const gate = new Gate();
  gate.open();
  const second = new Supervisor({ store, catalog: gatedCatalog(gate), leaseMs: 500 });
  await second.start();
  try {
    await waitForStatus(store, waiting.run_id, RunStatus.Completed);
  } finally {
    await second.stop();
    await store.close();
  }
}
