/**
 * Conformance cases for the queue (RunQueue): starts never acknowledged, claims handing disjoint runs to workers and
 * fencing older writers, leases taken by a commit, cleared when a run leaves `running`, handed over when they expire,
 * claims that skip runs, a queued seed waiting as `pending` until a claim makes it `running`, the adoption lookups of
 * the deploy check, and wake-ups.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunStatus, StoreConflictError, type Commit, type RunStore } from '../../../src/runs/store/types.js';
import { drainClaimable, newRun, now, rimthanCode, seedCommit, sleep, startRun, stepCommit } from './store-fixtures.js';

const HOUR = 3_600_000;

function refused(error: unknown): boolean {
  return error instanceof StoreConflictError;
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeQueueCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  test('unseededRuns finds pending runs without a seed created before an instant, in any session, oldest first', async () => {
    const old = (day: number) => `2001-01-0${day}T00:00:00.000Z`;
    const sessions: string[] = [randomUUID(), randomUUID()];
    const first = await store().createRun(newRun(sessions[0] as string, { created_at: old(1), updated_at: old(1) }));
    const second = await store().createRun(newRun(sessions[1] as string, { created_at: old(2), updated_at: old(2) }));
    const seeded = await store().createRun(newRun(sessions[0] as string, { created_at: old(3), updated_at: old(3) }));
    await store().commit(seedCommit(seeded));
    const ended = await store().createRun(newRun(sessions[0] as string, { created_at: old(4), updated_at: old(4) }));
    await store().commit({
      run_id: ended.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, updated_at: now() },
    });
    const young = await store().createRun(newRun(sessions[1] as string, { created_at: old(8), updated_at: old(8) }));
    const mine = (runs: { run_id: string; session_id: string }[]) =>
      runs.filter((r) => sessions.includes(r.session_id)).map((r) => r.run_id);
    assert.deepEqual(mine(await store().unseededRuns(old(5), 100)), [first.run_id, second.run_id]);
    assert.deepEqual(mine(await store().unseededRuns(old(9), 100)), [first.run_id, second.run_id, young.run_id]);
    await assert.rejects(store().unseededRuns(old(5), 0), rimthanCode('invalid_arguments'));
    await assert.rejects(store().unseededRuns(old(5), 101), rimthanCode('invalid_arguments'));
  });

  test('claimRuns hands disjoint runnable runs to two workers and skips unseeded, interrupted and finished runs', async () => {
    const second = await another();
    await drainClaimable(store());
    const session = randomUUID();
    const runnable = new Set<string>();
    for (let i = 0; i < 6; i += 1) runnable.add((await startRun(store(), session)).run_id);
    await store().createRun(newRun(session));
    const paused = await startRun(store(), session);
    await store().commit({
      run_id: paused.run_id,
      expected_record_revision: paused.record_revision,
      patch: {
        status: RunStatus.Interrupted,
        interrupt: { reason: 'awaiting_input', vertex: 'ask' },
        updated_at: now(),
      },
    });
    const done = await startRun(store(), session);
    await store().commit({
      run_id: done.run_id,
      expected_record_revision: done.record_revision,
      patch: { status: RunStatus.Completed, updated_at: now() },
    });

    const [a, b] = await Promise.all([
      store().claimRuns('worker-a', 60_000, 3),
      second.claimRuns('worker-b', 60_000, 100),
    ]);
    const idsA = a.map((r) => r.run_id);
    const idsB = b.map((r) => r.run_id);
    assert.equal(idsA.length + idsB.length, runnable.size);
    assert.deepEqual(new Set([...idsA, ...idsB]), runnable);
    assert.deepEqual(await store().claimRuns('worker-c', 60_000, 100), []);
    assert.deepEqual(new Set(await store().renewLeases('worker-a', idsA, 60_000)), new Set(idsA));
    assert.deepEqual(await second.renewLeases('worker-b', idsA, 60_000), []);
    // Which worker won which runs depends on who reached the database first: release one run of either.
    const aHolds = idsA.length > 0;
    const released = aHolds ? idsA[0] : idsB[0];
    assert.ok(released !== undefined);
    await (aHolds ? store() : second).releaseLease(aHolds ? 'worker-a' : 'worker-b', released);
    assert.deepEqual(
      (await (aHolds ? second : store()).claimRuns(aHolds ? 'worker-b' : 'worker-a', 60_000, 100)).map((r) => r.run_id),
      [released],
    );
  });

  test('an expired lease is handed over to another worker', async () => {
    const second = await another();
    await drainClaimable(store());
    const run = await startRun(store(), randomUUID());
    assert.deepEqual(
      (await store().claimRuns('worker-a', 1, 10)).map((r) => r.run_id),
      [run.run_id],
    );
    await sleep(25);
    assert.deepEqual(
      (await second.claimRuns('worker-b', 60_000, 10)).map((r) => r.run_id),
      [run.run_id],
    );
    assert.deepEqual(await store().renewLeases('worker-a', [run.run_id], 60_000), []);
  });

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

  test('a queued seed waits as pending with its seed durable, and the claim that takes it makes it running', async () => {
    const s = store();
    await drainClaimable(s);
    const created = await s.createRun(newRun(randomUUID()));
    const unseeded = await s.createRun(newRun(randomUUID()));
    const queued = await s.commit({
      ...seedCommit(created),
      patch: { status: RunStatus.Pending, status_summary: 'queued', updated_at: now() },
    });
    assert.equal(queued.status, RunStatus.Pending);
    assert.equal(queued.checkpoint_revision, 0);
    const claimed = await s.claimRuns('worker-a', HOUR, 10);
    assert.deepEqual(
      claimed.map((r) => r.run_id),
      [created.run_id],
      'an unseeded pending run is never claimed',
    );
    assert.equal(claimed[0]?.status, RunStatus.Running);
    assert.equal(claimed[0]?.status_summary, 'started');
    assert.equal(claimed[0]?.record_revision, queued.record_revision + 1, 'the claim is a fencing write');
    assert.deepEqual(await s.getRunById(created.run_id), claimed[0]);
    assert.equal((await s.getRunById(unseeded.run_id))?.status, RunStatus.Pending);
  });

  test('the lookups of the deploy check, restart and metrics', async () => {
    const s = store();
    const name = `flow_${randomUUID().slice(0, 8)}`;
    const session = randomUUID();
    const a = await s.createRun(newRun(session, { definition_name: name, definition_version: 'v1' }));
    const b = await s.createRun(newRun(session, { definition_name: name, definition_version: 'v1' }));
    const c = await s.createRun(newRun(session, { definition_name: name, definition_version: 'v2' }));
    await s.commit({
      run_id: c.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, updated_at: now() },
    });
    const mine = (await s.definitionsInUse()).filter((u) => u.definition_name === name);
    assert.deepEqual(mine, [
      { definition_name: name, definition_version: 'v1', runs: 2, run_ids: [a.run_id, b.run_id] },
    ]);
    const page = await s.runsOfDefinition(name, 'v1', { limit: 1 });
    assert.deepEqual(
      page.map((r) => r.run_id),
      [a.run_id],
    );
    const next = await s.runsOfDefinition(name, 'v1', { limit: 10, after_seq: page[0]?.created_seq ?? 0 });
    assert.deepEqual(
      next.map((r) => r.run_id),
      [b.run_id],
    );
    const seeded = await s.commit(seedCommit(a));
    const step = await s.commit(stepCommit(seeded, 1, 0));
    assert.deepEqual((await s.checkpointAt(a.run_id, 0))?.state, { step: 0 });
    assert.equal((await s.checkpointAt(a.run_id, 1))?.revision, step.checkpoint_revision);
    assert.equal(await s.checkpointAt(a.run_id, 2), undefined);
    await assert.rejects(s.checkpointAt(a.run_id, -1), rimthanCode('invalid_arguments'));
    const counts = await s.statusCounts();
    assert.deepEqual(Object.keys(counts).sort(), [
      'cancelled',
      'completed',
      'failed',
      'interrupted',
      'pending',
      'running',
    ]);
    assert.ok(counts.cancelled >= 1 && counts.running >= 1 && counts.pending >= 1);
  });

  test('notify reaches a listener', { timeout: 10_000 }, async () => {
    const runId = randomUUID();
    const heard = new Promise<string>((resolve) => {
      const stop = store().onNotify((id) => {
        if (id === runId) {
          stop();
          resolve(id);
        }
      });
    });
    await store().notify(runId);
    assert.equal(await heard, runId);
  });
}
