/**
 * Conformance cases for concurrency slots (RunConcurrency): a limited run is admitted while its key has a free slot
 * and nobody older waits, else it is seeded durably and waits `pending`, out of every claim; a run that ends frees its
 * slot and a promotion admits the oldest waiting runs; keys are independent; cancelling a waiting run frees nothing;
 * the sweep promotes after a restart; 200 concurrent starts on two store objects admit exactly the limit per key.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import {
  RunStatus,
  StoreConflictError,
  type ConcurrencySlot,
  type RunRecord,
  type RunStore,
} from '../../../src/runs/store/types.js';
import { drainClaimable, INPUT_SHA, INPUT_TEXT, newRun, now, queuedSeed, rimthanCode } from './store-fixtures.js';

const HOUR = 3_600_000;

/** Starts a run of `flow` under `slot`; answers the seeded record. */
async function startLimited(store: RunStore, flow: string, slot: ConcurrencySlot): Promise<RunRecord> {
  const record = newRun(randomUUID(), { definition_name: flow });
  return store.createLimitedRun(record, queuedSeed(record.run_id), slot);
}

/** Claims every claimable run for `worker` and answers the ids among `ids`. */
async function claimOf(store: RunStore, worker: string, ids: readonly string[]): Promise<RunRecord[]> {
  const mine = new Set(ids);
  const out: RunRecord[] = [];
  for (;;) {
    const claimed = await store.claimRuns(worker, HOUR, 1000);
    out.push(...claimed.filter((r) => mine.has(r.run_id)));
    if (claimed.length < 1000) return out;
  }
}

/** Completes a claimed run (its end frees its slot). */
function complete(store: RunStore, run: RunRecord): Promise<RunRecord> {
  return store.commit({
    run_id: run.run_id,
    expected_record_revision: run.record_revision,
    patch: { status: RunStatus.Completed, status_summary: 'done', updated_at: now() },
    checkpoint: { revision: run.checkpoint_revision + 1, state: { step: 1 }, created_at: now() },
  });
}

const flowName = (): string => `limited_${randomUUID().slice(0, 8)}`;

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeConcurrencyCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  test('runs beyond the limit are seeded but wait as pending, out of every claim, until a slot frees', async () => {
    await store().putInput(INPUT_SHA, INPUT_TEXT);
    await drainClaimable(store());
    const flow = flowName();
    const slot = { key: 'k', limit: 2 };
    const runs: RunRecord[] = [];
    for (let i = 0; i < 4; i++) runs.push(await startLimited(store(), flow, slot));
    assert.ok(runs.every((r) => r.status === RunStatus.Pending && r.checkpoint_revision === 0));
    assert.deepEqual(
      runs.map((r) => r.status_summary === SLOT_WAIT_SUMMARY),
      [false, false, true, true],
    );
    const [a, b, c, d] = runs.map((r) => r.run_id) as [string, string, string, string];
    const claimed = await claimOf(store(), 'w1', [a, b, c, d]);
    assert.deepEqual(claimed.map((r) => r.run_id).sort(), [a, b].sort());
    const second = await another();
    assert.deepEqual(await claimOf(second, 'w2', [c, d]), [], 'no other worker claims a waiting run');
    assert.equal((await store().getRunById(c))?.status, RunStatus.Pending);
    assert.deepEqual(
      await store()
        .unseededRuns(new Date(Date.now() + HOUR).toISOString(), 100)
        .then((r) => r.filter((x) => x.run_id === c)),
      [],
    );
    // Nothing ended yet: a promotion admits nobody.
    assert.deepEqual(await store().promoteAfter(a), []);
    const first = claimed.find((r) => r.run_id === a);
    if (first === undefined) throw new Error('a was not claimed');
    await complete(store(), first);
    assert.deepEqual(await store().promoteAfter(a), [c], 'the oldest waiting run takes the freed slot');
    const next = await claimOf(second, 'w2', [c, d]);
    assert.deepEqual(
      next.map((r) => [r.run_id, r.status]),
      [[c, RunStatus.Running]],
    );
    assert.deepEqual(await store().promoteAfter(a), [], 'the bound holds: d still waits');
    assert.equal((await store().getRunById(d))?.status_summary, SLOT_WAIT_SUMMARY);
  });

  test('keys are independent; a flow-wide limit is the empty key', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const x1 = await startLimited(store(), flow, { key: 'x', limit: 1 });
    const y1 = await startLimited(store(), flow, { key: 'y', limit: 1 });
    const x2 = await startLimited(store(), flow, { key: 'x', limit: 1 });
    const all1 = await startLimited(store(), flow, { key: '', limit: 1 });
    const all2 = await startLimited(store(), flow, { key: '', limit: 1 });
    const ids = [x1, y1, x2, all1, all2].map((r) => r.run_id);
    const claimed = (await claimOf(store(), 'w1', ids)).map((r) => r.run_id).sort();
    assert.deepEqual(claimed, [x1.run_id, y1.run_id, all1.run_id].sort());
    // Another flow name with the same key has its own slots.
    const other = await startLimited(store(), flowName(), { key: 'x', limit: 1 });
    assert.notEqual(other.status_summary, SLOT_WAIT_SUMMARY);
  });

  test('cancelling a waiting run works and frees nothing; an interrupted run keeps its slot', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const slot = { key: 'k', limit: 1 };
    const holder = await startLimited(store(), flow, slot);
    const waiting = await startLimited(store(), flow, slot);
    const third = await startLimited(store(), flow, slot);
    const cancelled = await store().commit({
      run_id: waiting.run_id,
      expected_record_revision: waiting.record_revision,
      patch: { status: RunStatus.Cancelled, status_summary: 'cancel requested', updated_at: now() },
      checkpoint: { revision: 1, state: { step: 0 }, created_at: now() },
    });
    assert.equal(cancelled.status, RunStatus.Cancelled);
    assert.deepEqual(await store().promoteAfter(waiting.run_id), [], 'the holder still holds the only slot');
    const [claimed] = await claimOf(store(), 'w1', [holder.run_id, third.run_id]);
    if (claimed === undefined) throw new Error('holder not claimed');
    const interrupted = await store().commit({
      run_id: claimed.run_id,
      expected_record_revision: claimed.record_revision,
      patch: {
        status: RunStatus.Interrupted,
        interrupt: { reason: 'awaiting_input', vertex: 'v' },
        updated_at: now(),
      },
      checkpoint: { revision: 1, state: { step: 1 }, created_at: now() },
    });
    assert.equal(interrupted.status, RunStatus.Interrupted);
    assert.deepEqual(await store().promoteAfter(holder.run_id), [], 'an interrupted run keeps its slot');
    const resumed = await store().commit({
      run_id: holder.run_id,
      expected_record_revision: interrupted.record_revision,
      patch: { status: RunStatus.Running, interrupt: null, updated_at: now() },
    });
    const [again] = await claimOf(store(), 'w1', [holder.run_id]);
    await complete(store(), again ?? resumed);
    assert.deepEqual(await store().promoteAfter(holder.run_id), [third.run_id]);
  });

  test('the sweep promotes waiting runs whose holder ended without a promotion, after a restart too', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const slot = { key: 'k', limit: 1 };
    const holder = await startLimited(store(), flow, slot);
    const waiting = await startLimited(store(), flow, slot);
    const [claimed] = await claimOf(store(), 'w1', [holder.run_id]);
    if (claimed === undefined) throw new Error('holder not claimed');
    await complete(store(), claimed);
    const restarted = await another();
    const admitted = await restarted.promoteWaiting(1000);
    assert.ok(admitted.includes(waiting.run_id));
    assert.deepEqual(
      (await claimOf(restarted, 'w2', [waiting.run_id])).map((r) => r.run_id),
      [waiting.run_id],
    );
  });

  test('a sweep reaches a key with a missed promotion however many full keys have waiters', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const slot = (key: string) => ({ key, limit: 1 });
    // 12 full keys, each with a holder and a waiting run: a sweep of 5 keys must not be spent on them.
    for (let k = 0; k < 12; k++) {
      await startLimited(store(), flow, slot(`full${k}`));
      await startLimited(store(), flow, slot(`full${k}`));
    }
    const holder = await startLimited(store(), flow, slot('missed'));
    const waiting = await startLimited(store(), flow, slot('missed'));
    const [claimed] = await claimOf(store(), 'w1', [holder.run_id]);
    if (claimed === undefined) throw new Error('holder not claimed');
    await complete(store(), claimed);
    assert.deepEqual(await store().promoteWaiting(5), [waiting.run_id]);
  });

  test('a limited seed of an existing unseeded run; refusals write nothing', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const created = await store().createRun(newRun(randomUUID(), { definition_name: flow }));
    const seeded = await store().seedLimitedRun(queuedSeed(created.run_id), { key: 'k', limit: 1 });
    assert.equal(seeded.checkpoint_revision, 0);
    assert.equal(seeded.status, RunStatus.Pending);
    await assert.rejects(
      store().seedLimitedRun(queuedSeed(created.run_id), { key: 'k', limit: 1 }),
      StoreConflictError,
    );
    const record = newRun(randomUUID(), { definition_name: flow });
    const bad = (slot: ConcurrencySlot) => store().createLimitedRun(record, queuedSeed(record.run_id), slot);
    await assert.rejects(bad({ key: 'k', limit: 0 }), rimthanCode('invalid_arguments'));
    await assert.rejects(bad({ key: 'k', limit: 10_001 }), rimthanCode('invalid_arguments'));
    await assert.rejects(bad({ key: 'k'.repeat(257), limit: 1 }), rimthanCode('invalid_arguments'));
    const running = { ...queuedSeed(record.run_id), patch: { status: RunStatus.Running, updated_at: now() } };
    await assert.rejects(
      store().createLimitedRun(record, running, { key: 'k', limit: 1 }),
      rimthanCode('invalid_arguments'),
    );
    assert.equal(await store().getRunById(record.run_id), undefined);
    await store().createLimitedRun(record, queuedSeed(record.run_id), { key: 'k', limit: 1 });
    await assert.rejects(
      store().createLimitedRun(record, queuedSeed(record.run_id), { key: 'k', limit: 1 }),
      StoreConflictError,
    );
    await assert.rejects(store().promoteWaiting(0), rimthanCode('invalid_arguments'));
  });

  test('200 concurrent limited starts on two store objects admit exactly the limit per key', async () => {
    await drainClaimable(store());
    const flow = flowName();
    const second = await another();
    const keys = ['a', 'b', 'c', 'd'];
    const started = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        startLimited(i % 2 === 0 ? store() : second, flow, { key: keys[i % 4] ?? 'a', limit: 3 }),
      ),
    );
    const admitted = started.filter((r) => r.status_summary !== SLOT_WAIT_SUMMARY);
    assert.equal(admitted.length, 12, 'three per key');
    const keyOf = new Map(started.map((r, i) => [r.run_id, keys[i % 4]]));
    // Drive every run to its end, a few at a time, as workers would; count holders per key after each promotion.
    const ids = started.map((r) => r.run_id);
    let done = 0;
    while (done < 200) {
      const claimed = await claimOf(done % 2 === 0 ? store() : second, 'w', ids);
      const perKey = new Map<string, number>();
      for (const r of claimed) perKey.set(keyOf.get(r.run_id) ?? '', (perKey.get(keyOf.get(r.run_id) ?? '') ?? 0) + 1);
      assert.ok(
        [...perKey.values()].every((n) => n <= 3),
        'never more than the limit claimable per key',
      );
      assert.ok(claimed.length > 0, 'progress');
      for (const r of claimed) {
        await complete(store(), r);
        await second.promoteAfter(r.run_id);
        done++;
      }
    }
    const ended = await Promise.all(ids.map((id) => store().getRunById(id)));
    assert.ok(ended.every((r) => r?.status === RunStatus.Completed));
  });
}
