/**
 * Conformance cases for the ledger's group commit and the operator writes built on it: commits issued together are
 * checked run by run (one run's refusal never fails another's), createRun with its seed writes both or neither, an
 * operator restart is the one way out of `failed`, an upgrade re-pins a run's version, and one run's commits apply in
 * call order with a refused one refusing those issued after it (what the executor's pipelining relies on).
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
} from '../../../src/runs/store/types.js';
import { activity, newRun, now, rimthanCode, seedCommit, startRun, stepCommit } from './store-fixtures.js';

/** `run` as it will be after `n` more step commits (record and checkpoint revisions both move). */
function ahead(run: RunRecord, n: number): RunRecord {
  return { ...run, record_revision: run.record_revision + n, checkpoint_revision: run.checkpoint_revision + n };
}

/** `run` as it will be after `n` more commits (what a pipelining writer builds its next commit on). */
function recordAhead(run: RunRecord, n: number): RunRecord {
  return { ...run, record_revision: run.record_revision + n };
}

function refused(error: unknown): boolean {
  return error instanceof StoreConflictError;
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store. */
export function describeLedgerBatchCases(store: () => RunStore): void {
  test('commits of many runs issued together: each run is checked alone, a refused one writes nothing', async () => {
    const s = store();
    const session = randomUUID();
    const runs = await Promise.all(Array.from({ length: 6 }, () => startRun(s, session)));
    const [ok, stale, chained, gap, clash, refusedChain] = runs as [
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
    ];
    const outcomes = await Promise.allSettled([
      s.commit(stepCommit(ok, 1, 1)),
      s.commit({ ...stepCommit(stale, 1, 1), expected_record_revision: stale.record_revision - 1 }),
      // Three consecutive steps of one run, issued without waiting: they may share the batch.
      s.commit(stepCommit(chained, 1, 1)),
      s.commit(stepCommit(ahead(chained, 1), 2, 2)),
      s.commit(stepCommit(ahead(chained, 2), 3, 1)),
      s.commit(stepCommit(gap, 2, 1)),
      // An activity whose position is taken: the database refuses the row, and only this commit fails.
      s.commit({ ...stepCommit(clash, 1, 1), activities: [{ ...activity(0, 0), event_id: randomUUID() }] }),
      // A chain whose head is refused: the rest of the chain is refused too.
      s.commit({ ...stepCommit(refusedChain, 1, 1), expected_record_revision: refusedChain.record_revision + 5 }),
      s.commit(stepCommit(ahead(refusedChain, 6), 2, 1)),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) if (o.status === 'rejected') assert.ok(o.reason instanceof StoreConflictError);
    const records = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined));
    assert.deepEqual(
      [records[2], records[3], records[4]].map((r) => [r?.record_revision, r?.checkpoint_revision, r?.activity_cursor]),
      [
        [chained.record_revision + 1, 1, 2],
        [chained.record_revision + 2, 2, 4],
        [chained.record_revision + 3, 3, 5],
      ],
      'each commit of a chain is acknowledged with the record it produced',
    );
    assert.deepEqual(await s.getRunById(chained.run_id), records[4]);
    assert.deepEqual(await s.getRunById(ok.run_id), records[0]);
    for (const untouched of [stale, gap, clash, refusedChain]) {
      assert.deepEqual(await s.getRunById(untouched.run_id), untouched, 'a refused run is exactly as before');
      assert.equal((await s.latestCheckpoint(untouched.run_id))?.revision, 0);
      assert.equal((await s.history(untouched.run_id, { limit: 10 })).length, 1);
    }
    assert.deepEqual(
      (await s.history(chained.run_id, { limit: 10 })).map((e) => [e.revision, e.ordinal]),
      [
        [0, 0],
        [1, 0],
        [2, 0],
        [2, 1],
        [3, 0],
      ],
    );
  });

  test('createRun with its seed writes record and seed as one: both or neither', async () => {
    const s = store();
    const session = randomUUID();
    const fresh = newRun(session);
    const asRecord = { ...fresh, created_seq: 0, record_revision: 0 };
    const seeded = await s.createRun(fresh, seedCommit(asRecord));
    assert.equal(seeded.status, RunStatus.Running);
    assert.equal(seeded.checkpoint_revision, 0);
    assert.equal(seeded.record_revision, 1);
    assert.deepEqual(await s.getRunById(fresh.run_id), seeded);
    assert.equal((await s.history(fresh.run_id, { limit: 10 })).length, 1);
    // A duplicate run id: nothing is written, the existing run keeps its state.
    await assert.rejects(s.createRun({ ...fresh, session_id: randomUUID() }, seedCommit(asRecord)), StoreConflictError);
    assert.deepEqual(await s.getRunById(fresh.run_id), seeded);
    // A refused seed: the record is not created either.
    const other = newRun(session);
    const bad: Commit = {
      ...seedCommit({ ...other, created_seq: 0, record_revision: 0 }),
      patch: { status: RunStatus.Completed, updated_at: now() },
    };
    await assert.rejects(s.createRun(other, bad), StoreConflictError);
    assert.equal(await s.getRunById(other.run_id), undefined);
    await assert.rejects(
      s.createRun(newRun(session), { ...seedCommit(asRecord), run_id: randomUUID() }),
      rimthanCode('invalid_arguments'),
    );
  });

  test('only an operator restart takes a failed run back to running; cancelled and completed stay final', async () => {
    const s = store();
    const failed = await s.createRun(newRun(randomUUID()));
    const ended = await s.commit({
      run_id: failed.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Failed, updated_at: now() },
    });
    const revive: Commit = {
      run_id: failed.run_id,
      expected_record_revision: ended.record_revision,
      patch: { status: RunStatus.Running, updated_at: now() },
    };
    await assert.rejects(s.commit(revive), StoreConflictError);
    const reopened = await s.commit({ ...revive, reopen: true });
    assert.equal(reopened.status, RunStatus.Running);
    const cancelled = await s.createRun(newRun(randomUUID()));
    const stopped = await s.commit({
      run_id: cancelled.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, updated_at: now() },
    });
    await assert.rejects(
      s.commit({
        ...revive,
        run_id: cancelled.run_id,
        expected_record_revision: stopped.record_revision,
        reopen: true,
      }),
      StoreConflictError,
    );
  });

  test('an upgrade commit re-pins the run to another version of its flow', async () => {
    const s = store();
    const run = await startRun(s, randomUUID());
    const upgraded = await s.commit({
      ...stepCommit(run, 1, 1),
      patch: { definition_version: 'v2', updated_at: now() },
    });
    assert.equal(upgraded.definition_version, 'v2');
    assert.equal((await s.getRunById(run.run_id))?.definition_version, 'v2');
  });

  test('commits of one run issued without waiting apply in call order; after a refused one the rest are refused', async () => {
    const s = store();
    const run = await startRun(s, randomUUID());
    // Three consecutive steps issued at once, each built on the record the previous one will produce.
    const landed = await Promise.all([
      s.commit(stepCommit(run, 1, 1)),
      s.commit(stepCommit(recordAhead(run, 1), 2, 1)),
      s.commit(stepCommit(recordAhead(run, 2), 3, 1)),
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
      s.commit(stepCommit(recordAhead(base, 1), 5, 1)),
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
