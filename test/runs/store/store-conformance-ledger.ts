/**
 * Conformance cases for the run ledger (RunLedger): records visible in their own session only, duplicate ids and
 * idempotency keys, compare-and-swap commits, gap-free checkpoints, the run status machine, cancel requests, atomic
 * commits, immutable activity history read losslessly by both cursors, inputs by digest, and size limits.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../src/core/digest.js';
import { RunStatus, StoreConflictError, type ActivityEntry, type RunStore } from '../../../src/runs/store/types.js';
import {
  activity,
  INPUT_SHA,
  INPUT_TEXT,
  newRun,
  now,
  rimthanCode,
  seedCommit,
  startRun,
  stepCommit,
} from './store-fixtures.js';

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeLedgerCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  test('a run is visible in its own session and identical to missing from another session', async () => {
    const session = randomUUID();
    const created = await store().createRun(newRun(session));
    assert.equal(created.record_revision, 0);
    assert.equal(created.checkpoint_revision, -1);
    assert.ok(created.created_seq > 0);
    assert.deepEqual(await store().getRun(session, created.run_id), created);
    assert.deepEqual(await store().getRunById(created.run_id), created);
    assert.equal(await store().getRun(randomUUID(), created.run_id), undefined);
    assert.equal(await store().getRun(session, randomUUID()), undefined);
  });

  test('a duplicate run id is a conflict', async () => {
    const session = randomUUID();
    const first = await store().createRun(newRun(session));
    await assert.rejects(store().createRun(newRun(session, { run_id: first.run_id })), StoreConflictError);
    await assert.rejects(store().createRun(newRun(randomUUID(), { run_id: first.run_id })), StoreConflictError);
  });

  test('an idempotency key names one run per session', async () => {
    const session = randomUUID();
    const key = `key-${randomUUID()}`;
    const first = await store().createRun(newRun(session, { idempotency_key: key }));
    await assert.rejects(store().createRun(newRun(session, { idempotency_key: key })), StoreConflictError);
    assert.deepEqual(await store().findByIdempotencyKey(session, key), first);
    const other = await store().createRun(newRun(randomUUID(), { idempotency_key: key }));
    assert.notEqual(other.run_id, first.run_id);
    assert.equal(await store().findByIdempotencyKey(randomUUID(), key), undefined);
  });

  test('a commit on a stale record revision is a conflict and changes nothing', async () => {
    const session = randomUUID();
    const created = await store().createRun(newRun(session));
    const running = await store().commit(seedCommit(created));
    assert.equal(running.record_revision, 1);
    assert.equal(running.status, RunStatus.Running);
    const stale = { ...stepCommit(created, 1, 1), expected_record_revision: 0 };
    await assert.rejects(store().commit(stale), StoreConflictError);
    assert.deepEqual(await store().getRunById(created.run_id), running);
    assert.equal((await store().latestCheckpoint(created.run_id))?.revision, 0);
    assert.equal((await store().history(created.run_id, { limit: 10 })).length, 1);
  });

  test('checkpoint revisions have no gaps: the seed is 0 and each next one is latest + 1', async () => {
    const created = await store().createRun(newRun(randomUUID()));
    await assert.rejects(store().commit(stepCommit(created, 1, 0)), StoreConflictError);
    const seeded = await store().commit(seedCommit(created));
    assert.equal(seeded.checkpoint_revision, 0);
    await assert.rejects(store().commit(stepCommit(seeded, 0, 0)), StoreConflictError);
    await assert.rejects(store().commit(stepCommit(seeded, 2, 0)), StoreConflictError);
    const next = await store().commit(stepCommit(seeded, 1, 0));
    assert.equal(next.checkpoint_revision, 1);
    const latest = await store().latestCheckpoint(created.run_id);
    assert.deepEqual(latest?.state, { step: 1 });
    assert.equal(latest?.revision, 1);
    assert.equal(await store().latestCheckpoint(randomUUID()), undefined);
  });

  test('status changes follow the run status machine', async () => {
    const created = await store().createRun(newRun(randomUUID()));
    const skip = {
      run_id: created.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Completed, updated_at: now() },
    };
    await assert.rejects(store().commit(skip), StoreConflictError);
    const cancelled = await store().commit({ ...skip, patch: { status: RunStatus.Cancelled, updated_at: now() } });
    assert.equal(cancelled.status, RunStatus.Cancelled);
    const revive = { ...skip, expected_record_revision: 1, patch: { status: RunStatus.Running, updated_at: now() } };
    await assert.rejects(store().commit(revive), StoreConflictError);
  });

  test('a terminal run takes no further commit, not even one that keeps its status', async () => {
    const created = await store().createRun(newRun(randomUUID()));
    const cancel = { run_id: created.run_id, expected_record_revision: 0 };
    await store().commit({
      ...cancel,
      patch: { status: RunStatus.Cancelled, status_summary: 'first', updated_at: now() },
    });
    const again = { ...cancel, expected_record_revision: 1 };
    const patches = [
      { status: RunStatus.Cancelled, status_summary: 'second', updated_at: now() },
      { status_summary: 'second', updated_at: now() },
    ];
    for (const patch of patches) await assert.rejects(store().commit({ ...again, patch }), StoreConflictError);
    const stored = await store().getRun(created.session_id, created.run_id);
    assert.equal(stored?.status_summary, 'first');
    assert.equal(stored?.record_revision, 1);
  });

  test('a cancel request needs no compare-and-swap and fences out the writer that read before it', async () => {
    const seeded = await startRun(store(), randomUUID());
    const ownerRead = seeded; // what the executing worker last read
    const requested = await store().requestCancel(seeded.run_id, 'stop now', now());
    assert.equal(requested?.cancel_requested, true);
    assert.equal(requested?.status, RunStatus.Running, 'a request does not end the run');
    assert.equal(requested?.status_summary, 'stop now');
    assert.equal(requested?.record_revision, seeded.record_revision + 1);
    assert.deepEqual(await store().getRunById(seeded.run_id), requested);
    // The worker's next commit, made on its older read, loses; a reread shows the request.
    await assert.rejects(store().commit(stepCommit(ownerRead, 1, 1)), StoreConflictError);
    // A second request, from anyone, writes nothing.
    assert.deepEqual(await store().requestCancel(seeded.run_id, 'again', now()), requested);
    // A second worker's store sees the same request.
    assert.equal((await (await another()).getRunById(seeded.run_id))?.cancel_requested, true);
  });

  test('a cancel request leaves terminal runs unchanged and does not know unknown runs', async () => {
    const created = await store().createRun(newRun(randomUUID()));
    const cancelled = await store().commit({
      run_id: created.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, status_summary: 'done', updated_at: now() },
    });
    assert.deepEqual(await store().requestCancel(created.run_id, 'late', now()), cancelled);
    assert.equal(await store().requestCancel(randomUUID(), 'nobody', now()), undefined);
    await assert.rejects(
      store().requestCancel(created.run_id, 'x'.repeat(10_000), now()),
      rimthanCode('invalid_arguments'),
    );
  });

  test('a commit is all or nothing: a refused activity also drops its checkpoint', async () => {
    const seeded = await startRun(store(), randomUUID());
    const clash = { ...activity(0, 0), event_id: randomUUID() };
    const commit = { ...stepCommit(seeded, 1, 1), activities: [activity(1, 0), clash] };
    await assert.rejects(store().commit(commit), StoreConflictError);
    assert.deepEqual(await store().getRunById(seeded.run_id), seeded);
    assert.equal((await store().latestCheckpoint(seeded.run_id))?.revision, 0);
    assert.equal((await store().history(seeded.run_id, { limit: 10 })).length, 1);
  });

  test('a refused write does not undo the writes made alongside it', async () => {
    const session = randomUUID();
    const existing = await store().createRun(newRun(session));
    const [dup, fresh, seed] = await Promise.allSettled([
      store().createRun(newRun(session, { run_id: existing.run_id })),
      store().createRun(newRun(session)),
      store().commit(seedCommit(existing)),
    ]);
    assert.equal(dup.status, 'rejected');
    assert.ok(dup.reason instanceof StoreConflictError);
    assert.equal(fresh.status, 'fulfilled');
    assert.equal(seed.status, 'fulfilled');
    assert.equal((await store().listRuns(session, { limit: 10 })).length, 2);
    assert.equal((await store().getRunById(existing.run_id))?.checkpoint_revision, 0);
  });

  test('a commit on an unknown run is not_found', async () => {
    const commit = { run_id: randomUUID(), expected_record_revision: 0, patch: { updated_at: now() } };
    await assert.rejects(store().commit(commit), rimthanCode('not_found'));
  });

  test('activities are immutable and a republished event_id is skipped', async () => {
    const seeded = await startRun(store(), randomUUID());
    const first = activity(1, 0, 'original');
    const c1 = await store().commit({ ...stepCommit(seeded, 1, 0), activities: [first, activity(1, 1)] });
    assert.equal(c1.activity_cursor, 3);
    const again = {
      run_id: seeded.run_id,
      expected_record_revision: c1.record_revision,
      patch: { updated_at: now() },
    };
    const c2 = await store().commit({ ...again, activities: [{ ...first, message: 'rewritten' }] });
    assert.equal(c2.activity_cursor, 3);
    const entries = await store().history(seeded.run_id, { limit: 10 });
    assert.equal(entries.length, 3);
    assert.equal(entries.find((e) => e.event_id === first.event_id)?.message, 'original');
  });

  test('history pages are ordered by (revision, ordinal) and both cursors read losslessly', async () => {
    const seeded = await startRun(store(), randomUUID());
    let run = seeded;
    for (const [revision, count] of [
      [1, 5],
      [2, 2],
      [3, 1],
    ] as const) {
      const commit = stepCommit(run, revision, count);
      run = await store().commit({ ...commit, activities: [...(commit.activities ?? [])].reverse() });
    }
    const all = await store().history(run.run_id, { limit: 100 });
    assert.deepEqual(
      all.map((e) => [e.revision, e.ordinal]),
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [1, 2],
        [1, 3],
        [1, 4],
        [2, 0],
        [2, 1],
        [3, 0],
      ],
    );
    assert.equal(run.activity_cursor, all.length);
    const read: ActivityEntry[] = [];
    let cursor: { after_revision: number; after_event_id: string } | undefined;
    for (;;) {
      const page = await store().history(run.run_id, { limit: 2, ...(cursor ?? {}) });
      read.push(...page);
      const last = page.at(-1);
      if (page.length < 2 || last === undefined) break;
      cursor = { after_revision: last.revision, after_event_id: last.event_id };
    }
    assert.deepEqual(read, all);
    const afterOne = await store().history(run.run_id, { after_revision: 1, limit: 100 });
    assert.deepEqual(
      afterOne,
      all.filter((e) => e.revision > 1),
    );
    const unknown = { after_revision: 1, after_event_id: randomUUID(), limit: 10 };
    await assert.rejects(store().history(run.run_id, unknown), rimthanCode('invalid_arguments'));
  });

  test('inputs are stored once by digest and refused when the digest does not match', async () => {
    await store().putInput(INPUT_SHA, INPUT_TEXT);
    await store().putInput(INPUT_SHA, INPUT_TEXT);
    assert.equal(await store().getInput(INPUT_SHA), INPUT_TEXT);
    assert.equal(await store().getInput(sha256Hex('never stored')), undefined);
    await assert.rejects(store().putInput(sha256Hex('other'), INPUT_TEXT), rimthanCode('invalid_arguments'));
    const big = `{"a":"${'x'.repeat(256 * 1024)}"}`;
    await assert.rejects(store().putInput(sha256Hex(big), big), rimthanCode('invalid_arguments'));
  });

  test('oversized summaries and too many artifacts are refused', async () => {
    const session = randomUUID();
    await assert.rejects(
      store().createRun(newRun(session, { status_summary: 'é'.repeat(513) })),
      rimthanCode('invalid_arguments'),
    );
    const artifacts = Array.from({ length: 129 }, (_, i) => ({
      id: `a${i}`,
      kind: 'report',
      digest: INPUT_SHA,
      size: 1,
    }));
    await assert.rejects(store().createRun(newRun(session, { artifacts })), rimthanCode('invalid_arguments'));
    const created = await store().createRun(newRun(session, { artifacts: artifacts.slice(0, 128) }));
    assert.equal(created.artifacts.length, 128);
    const tooLong = {
      run_id: created.run_id,
      expected_record_revision: 0,
      patch: { status_summary: 'x'.repeat(1025), updated_at: now() },
    };
    await assert.rejects(store().commit(tooLong), rimthanCode('invalid_arguments'));
  });
}
