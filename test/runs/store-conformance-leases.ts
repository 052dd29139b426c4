/**
 * Conformance cases for what the executor's pipelining and the supervisor's lease handling rely on: a claim fences
 * (bumps record_revision), a commit can take the lease, a commit leaving `running` clears it, claims can skip runs,
 * and one run's commits apply in call order with a refused one refusing those issued after it.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RunStatus,
  StoreConflictError,
  type Commit,
  type RunRecord,
  type RunStore,
} from '../../src/runs/store/types.js';
import { drainClaimable, newRun, now, rimthanCode, seedCommit, startRun, stepCommit } from './store-fixtures.js';

const HOUR = 3_600_000;

/** `run` as it will be after `n` more commits (what a pipelining writer builds its next commit on). */
function ahead(run: RunRecord, n: number): RunRecord {
  return { ...run, record_revision: run.record_revision + n };
}

function refused(error: unknown): boolean {
  return error instanceof StoreConflictError;
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeLeaseAndOrderCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  test('a claim is a fencing write: it bumps record_revision and a writer holding the older revision is refused', async () => {
    const s = store();
    await drainClaimable(s);
    const run = await startRun(s, randomUUID());
    const [claimed] = await s.claimRuns('worker-a', HOUR, 10);
    assert.equal(claimed?.run_id, run.run_id);
    assert.equal(claimed?.record_revision, run.record_revision + 1);
    assert.equal((await s.getRunById(run.run_id))?.record_revision, run.record_revision + 1);
    await assert.rejects(s.commit(stepCommit(run, 1, 1)), refused);
    const next = await s.commit(stepCommit(claimed, 1, 1));
    assert.equal(next.checkpoint_revision, 1);
  });

  test('a commit can take the lease for its worker; a lease held by another worker refuses it whole', async () => {
    const s = store();
    const second = await another();
    await drainClaimable(s);
    const created = await s.createRun(newRun(randomUUID()));
    const lease = { worker_id: 'worker-a', lease_ms: HOUR };
    const seeded = await s.commit({ ...seedCommit(created), lease });
    assert.equal(seeded.status, RunStatus.Running);
    assert.deepEqual(await second.claimRuns('worker-b', HOUR, 10), [], 'the seeded run is leased already');
    assert.deepEqual(await s.renewLeases('worker-a', [created.run_id], HOUR), [created.run_id]);

    const stolen: Commit = { ...stepCommit(seeded, 1, 1), lease: { worker_id: 'worker-b', lease_ms: HOUR } };
    await assert.rejects(second.commit(stolen), refused);
    assert.equal((await s.latestCheckpoint(created.run_id))?.revision, 0, 'the refused commit left nothing behind');
    assert.equal((await s.getRunById(created.run_id))?.activity_cursor, 1);

    const mine = await s.commit({ ...stepCommit(seeded, 1, 1), lease });
    assert.equal(mine.checkpoint_revision, 1);
    const finish: Commit = {
      run_id: created.run_id,
      expected_record_revision: mine.record_revision,
      patch: { status: RunStatus.Completed, updated_at: now() },
      lease,
    };
    await assert.rejects(s.commit(finish), rimthanCode('invalid_arguments'));
  });

  test('a commit that leaves running clears the lease: a resumed run can be claimed at once by another worker', async () => {
    const s = store();
    const second = await another();
    await drainClaimable(s);
    const run = await startRun(s, randomUUID());
    const [claimed] = await s.claimRuns('worker-a', HOUR, 10);
    assert.ok(claimed !== undefined);
    const paused = await s.commit({
      run_id: run.run_id,
      expected_record_revision: claimed.record_revision,
      patch: {
        status: RunStatus.Interrupted,
        interrupt: { reason: 'awaiting_input', vertex: 'ask' },
        updated_at: now(),
      },
    });
    assert.deepEqual(await s.renewLeases('worker-a', [run.run_id], HOUR), [], 'the pause released the lease');
    await s.commit({
      run_id: run.run_id,
      expected_record_revision: paused.record_revision,
      patch: { status: RunStatus.Running, interrupt: null, updated_at: now() },
    });
    assert.deepEqual(
      (await second.claimRuns('worker-b', HOUR, 10)).map((r) => r.run_id),
      [run.run_id],
    );
  });

  test('claimRuns skips the runs a worker excludes and bounds the list', async () => {
    const s = store();
    await drainClaimable(s);
    const session = randomUUID();
    const first = await startRun(s, session);
    const second = await startRun(s, session);
    assert.deepEqual(
      (await s.claimRuns('worker-a', HOUR, 10, [first.run_id])).map((r) => r.run_id),
      [second.run_id],
    );
    assert.deepEqual(
      (await s.claimRuns('worker-b', HOUR, 10, [])).map((r) => r.run_id),
      [first.run_id],
    );
    const tooMany = Array.from({ length: 1001 }, () => randomUUID());
    await assert.rejects(s.claimRuns('worker-c', HOUR, 10, tooMany), rimthanCode('invalid_arguments'));
  });

  test('commits of one run issued without waiting apply in call order; after a refused one the rest are refused', async () => {
    const s = store();
    const run = await startRun(s, randomUUID());
    // Three consecutive steps issued at once, each built on the record the previous one will produce.
    const landed = await Promise.all([
      s.commit(stepCommit(run, 1, 1)),
      s.commit(stepCommit(ahead(run, 1), 2, 1)),
      s.commit(stepCommit(ahead(run, 2), 3, 1)),
    ]);
    assert.deepEqual(
      landed.map((r) => [r.record_revision - run.record_revision, r.checkpoint_revision]),
      [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    );
    const base = landed[2];
    assert.ok(base !== undefined);
    // A foreign write lands first: the pipelined head is refused by compare-and-swap, and its tail — whose expected
    // record revision the foreign write happens to produce — by compare-and-append on the checkpoint revision.
    const foreign: Commit = {
      run_id: run.run_id,
      expected_record_revision: base.record_revision,
      patch: { status_summary: 'someone else', updated_at: now() },
    };
    const outcomes = await Promise.allSettled([
      s.commit(foreign),
      s.commit(stepCommit(base, 4, 1)),
      s.commit(stepCommit(ahead(base, 1), 5, 1)),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'rejected'],
    );
    for (const o of outcomes) if (o.status === 'rejected') assert.ok(refused(o.reason));
    assert.equal((await s.latestCheckpoint(run.run_id))?.revision, 3);
    const history = await s.history(run.run_id, { limit: 100 });
    assert.deepEqual(
      history.map((e) => e.revision),
      [0, 1, 2, 3],
    );
  });
}
