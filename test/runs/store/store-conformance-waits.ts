/**
 * Conformance cases for durable waits (RunWaits): a parked run stays out of every worker's claims until its timer is
 * due, also on a store opened afresh (a restart) and on a second worker; a park answers `stale` to a worker that no
 * longer holds the run and `ready` when what it awaits is already there; events are kept at most once per id and
 * numbered per name; an event, a cancel request or a child's end wakes a parked run; children are listed by parent.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunStatus, WAIT_FOREVER, type RunRecord, type RunStore } from '../../../src/runs/store/types.js';
import { drainClaimable, newRun, now, rimthanCode, startRun } from './store-fixtures.js';

const HOUR = 3_600_000;

/** A fresh run leased to `worker`, as an executing worker holds it. */
async function leasedRun(store: RunStore, session: string, worker: string): Promise<RunRecord> {
  await drainClaimable(store);
  const run = await startRun(store, session);
  const [claimed] = await store.claimRuns(worker, HOUR, 1);
  assert.equal(claimed?.run_id, run.run_id);
  if (claimed === undefined) throw new Error('claim returned nothing');
  return claimed;
}

async function claimedIds(store: RunStore, worker: string): Promise<string[]> {
  return (await store.claimRuns(worker, HOUR, 1000)).map((r) => r.run_id);
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeWaitCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  test('a parked timer is claimed by no worker before it is due, then by any worker, after a restart too', async () => {
    const session = randomUUID();
    const later = await leasedRun(store(), session, 'w1');
    const base = { worker_id: 'w1', expected_record_revision: later.record_revision };
    assert.equal(await store().parkRun({ run_id: later.run_id, ...base, wait_until: Date.now() + HOUR }), 'parked');
    const due = await leasedRun(store(), session, 'w1');
    const parkDue = { run_id: due.run_id, worker_id: 'w1', expected_record_revision: due.record_revision };
    assert.equal(await store().parkRun({ ...parkDue, wait_until: Date.now() - 1 }), 'parked');
    const next = await store().nextWakeAt();
    assert.ok(next !== undefined && next <= Date.now(), 'the due timer is the earliest');
    // A second store object on the same database: another worker, or this one after a restart.
    const restarted = await another();
    const claimed = await claimedIds(restarted, 'w2');
    assert.ok(claimed.includes(due.run_id), 'the due run is claimed by the other worker');
    assert.ok(!claimed.includes(later.run_id), 'the later run stays parked');
    const woke = await restarted.getRunById(due.run_id);
    assert.equal(woke?.status, RunStatus.Running);
    // The claim woke it: released, it is claimable at once (no timer left).
    await restarted.releaseLease('w2', due.run_id);
    assert.ok((await claimedIds(store(), 'w3')).includes(due.run_id));
    assert.ok(!(await claimedIds(store(), 'w3')).includes(later.run_id));
  });

  test('a park by a worker that no longer holds the run, or after another write, is stale', async () => {
    const run = await leasedRun(store(), randomUUID(), 'w1');
    const park = { run_id: run.run_id, expected_record_revision: run.record_revision, wait_until: WAIT_FOREVER };
    assert.equal(await store().parkRun({ ...park, worker_id: 'w2' }), 'stale');
    await store().requestCancel(run.run_id, 'stop', now());
    assert.equal(await store().parkRun({ ...park, worker_id: 'w1' }), 'stale');
    await assert.rejects(
      store().parkRun({ ...park, worker_id: 'w1', wait_until: -1 }),
      rimthanCode('invalid_arguments'),
    );
  });

  test('a cancel request wakes a parked run at once', async () => {
    const run = await leasedRun(store(), randomUUID(), 'w1');
    const park = { run_id: run.run_id, worker_id: 'w1', expected_record_revision: run.record_revision };
    assert.equal(await store().parkRun({ ...park, wait_until: WAIT_FOREVER }), 'parked');
    assert.ok(!(await claimedIds(store(), 'w2')).includes(run.run_id));
    await store().requestCancel(run.run_id, 'stop', now());
    assert.ok((await claimedIds(store(), 'w2')).includes(run.run_id));
  });

  test('events are kept once per id, numbered per name, and wake the run that awaits that name', async () => {
    const session = randomUUID();
    const run = await leasedRun(store(), session, 'w1');
    const send = (event_id: string, name: string, payload = {}) =>
      store().sendEvent({ run_id: run.run_id, event_id, name, payload, sent_at: now() });
    const park = { run_id: run.run_id, worker_id: 'w1', expected_record_revision: run.record_revision };
    const waiting = { ...park, wait_until: WAIT_FOREVER, event: { name: 'approval', position: 0 } };
    assert.equal(await store().parkRun(waiting), 'parked');
    assert.equal(await send('n-1', 'note', { text: 'a' }), 'delivered');
    assert.ok(!(await claimedIds(store(), 'w2')).includes(run.run_id), 'another name does not wake it');
    assert.equal(await send('a-1', 'approval', { ok: true }), 'delivered');
    assert.equal(await send('a-1', 'approval', { ok: false }), 'duplicate');
    assert.equal(await send('a-2', 'approval', { ok: false }), 'delivered');
    assert.deepEqual((await store().eventAt(run.run_id, 'approval', 0))?.payload, { ok: true });
    assert.deepEqual((await store().eventAt(run.run_id, 'approval', 1))?.payload, { ok: false });
    assert.equal(await store().eventAt(run.run_id, 'approval', 2), undefined);
    assert.deepEqual((await store().eventAt(run.run_id, 'note', 0))?.payload, { text: 'a' });
    const [claimed] = (await store().claimRuns('w2', HOUR, 1000)).filter((r) => r.run_id === run.run_id);
    assert.ok(claimed !== undefined, 'the awaited event woke it');
    // Already there: a park awaiting it is ready and writes nothing.
    const again = { ...waiting, worker_id: 'w2', expected_record_revision: claimed.record_revision };
    assert.equal(await store().parkRun(again), 'ready');
    assert.equal(await store().parkRun({ ...again, event: { name: 'approval', position: 2 } }), 'parked');
    await assert.rejects(send('x', 'bad name!'), rimthanCode('invalid_arguments'));
    assert.equal(
      await store().sendEvent({ run_id: randomUUID(), event_id: 'e', name: 'a', payload: {}, sent_at: now() }),
      'not_found',
    );
  });

  test('a finished run takes no event, and a malformed event is refused', async () => {
    const created = await store().createRun(newRun(randomUUID()));
    await store().commit({
      run_id: created.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, updated_at: now() },
    });
    const event = { run_id: created.run_id, event_id: 'e', name: 'go', payload: {}, sent_at: now() };
    assert.equal(await store().sendEvent(event), 'finished');
    await assert.rejects(store().sendEvent({ ...event, name: 'Not A Name' }), rimthanCode('invalid_arguments'));
  });

  test("a child's end wakes its parked parent; children are listed by parent in creation order", async () => {
    const session = randomUUID();
    const parent = await leasedRun(store(), session, 'w1');
    const children: RunRecord[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await store().createRun(newRun(session, { parent_run_id: parent.run_id }));
      children.push(created);
    }
    const listed = await store().childRuns(parent.run_id, { limit: 10 });
    assert.deepEqual(
      listed.map((r) => r.run_id),
      children.map((r) => r.run_id),
    );
    assert.deepEqual(
      (await store().childRuns(parent.run_id, { limit: 10, after_seq: listed[0]?.created_seq ?? 0 })).length,
      2,
    );
    const awaited = children[0] as RunRecord;
    const park = { run_id: parent.run_id, worker_id: 'w1', expected_record_revision: parent.record_revision };
    assert.equal(await store().parkRun({ ...park, wait_until: WAIT_FOREVER, child: awaited.run_id }), 'parked');
    await store().wakeParent(parent.run_id, (children[1] as RunRecord).run_id);
    assert.ok(!(await claimedIds(store(), 'w2')).includes(parent.run_id), 'another child does not wake it');
    await store().commit({
      run_id: awaited.run_id,
      expected_record_revision: 0,
      patch: { status: RunStatus.Cancelled, updated_at: now() },
    });
    await store().wakeParent(parent.run_id, awaited.run_id);
    const [claimed] = (await store().claimRuns('w2', HOUR, 1000)).filter((r) => r.run_id === parent.run_id);
    assert.ok(claimed !== undefined, "the child's end woke it");
    const again = { ...park, worker_id: 'w2', expected_record_revision: claimed.record_revision };
    assert.equal(await store().parkRun({ ...again, wait_until: WAIT_FOREVER, child: awaited.run_id }), 'ready');
  });
}
