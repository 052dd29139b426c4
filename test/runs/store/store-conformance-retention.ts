/**
 * Conformance cases for retention (RunRetention): a prune deletes finished runs due under an age or count policy, in
 * bounded batches, with their checkpoints, history, events, idempotency keys and their inputs once nothing else refers
 * to them; it never deletes a run that is not finished, a parent with an unfinished child or a child of an unfinished
 * parent; a late cancel request, event or commit on a pruned run finds nothing. Each case prunes flows of its own name
 * (runs finished in 2001, long before any other case's), as the cases share one database.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../src/core/digest.js';
import { ActivityKind, RunStatus, type RunRecord, type RunStore } from '../../../src/runs/store/types.js';
import { INPUT_SHA, INPUT_TEXT, newRun, now, rimthanCode, seedCommit } from './store-fixtures.js';

const flowName = (): string => `ret_${randomUUID().slice(0, 8)}`;
const day = (d: number): string => new Date(Date.UTC(2001, 0, d)).toISOString();

export interface RunShape {
  readonly name: string;
  /** The run's last write (its finish when it ends). */
  readonly at: string;
  readonly status?: RunStatus;
  readonly parent?: string;
  readonly input?: string;
  readonly key?: string;
  readonly session?: string;
}

/** A run in `status` (default completed) whose last write is `at`, with a checkpoint, history and an event. */
export async function runOf(store: RunStore, shape: RunShape): Promise<RunRecord> {
  const session = shape.session ?? randomUUID();
  const input = shape.input ?? INPUT_TEXT;
  const sha = shape.input === undefined ? INPUT_SHA : sha256Hex(input);
  await store.putInput(sha, input);
  const record = newRun(session, {
    definition_name: shape.name,
    parent_run_id: shape.parent ?? null,
    input_sha256: sha,
    idempotency_key: shape.key ?? null,
    created_at: shape.at,
    updated_at: shape.at,
  });
  const created = await store.createRun(record);
  const status = shape.status ?? RunStatus.Completed;
  if (status === RunStatus.Pending) return created;
  const seeded = await store.commit({
    ...seedCommit(created),
    patch: { status: RunStatus.Running, updated_at: shape.at },
  });
  const event = { run_id: seeded.run_id, event_id: randomUUID(), name: 'go', payload: {}, sent_at: now() };
  assert.equal(await store.sendEvent(event), 'delivered');
  if (status === RunStatus.Running) return seeded;
  const kinds: Partial<Record<RunStatus, ActivityKind>> = {
    completed: ActivityKind.RunCompleted,
    cancelled: ActivityKind.RunCancelled,
    failed: ActivityKind.RunFailed,
    interrupted: ActivityKind.RunInterrupted,
  };
  return store.commit({
    run_id: seeded.run_id,
    expected_record_revision: seeded.record_revision,
    patch: {
      status,
      updated_at: shape.at,
      ...(status === RunStatus.Interrupted ? { interrupt: { reason: 'awaiting_input', vertex: 'ask' } } : {}),
    },
    checkpoint: { revision: 1, state: { step: 1 }, created_at: shape.at },
    activities: [
      {
        revision: 1,
        ordinal: 0,
        event_id: randomUUID(),
        kind: kinds[status]!,
        run_status: status,
        occurred_at: shape.at,
      },
    ],
  });
}

/** Finishes a running run now. */
async function finish(store: RunStore, run: RunRecord): Promise<void> {
  const current = await store.getRunById(run.run_id);
  if (current === undefined) throw new Error('run vanished');
  await store.commit({
    run_id: run.run_id,
    expected_record_revision: current.record_revision,
    patch: { status: RunStatus.Completed, updated_at: now() },
  });
}

async function exists(store: RunStore, run: RunRecord): Promise<boolean> {
  return (await store.getRunById(run.run_id)) !== undefined;
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store. */
export function describeRetentionCases(store: () => RunStore): void {
  test('an age policy deletes runs finished before the instant with all that is theirs; their key is free again', async () => {
    const s = store();
    const name = flowName();
    const session = randomUUID();
    const old = await runOf(s, { name, at: day(1), key: 'k-1', session });
    const older = await runOf(s, { name, at: day(2), status: RunStatus.Failed });
    const recent = await runOf(s, { name, at: day(3), status: RunStatus.Cancelled });
    const result = await s.pruneRuns({ definition_name: name, finished_before: '2001-01-02T12:00:00Z', limit: 100 });
    assert.equal(result.deleted, 2);
    assert.deepEqual(result.by_definition, { [name]: 2 });
    for (const gone of [old, older]) {
      assert.equal(await s.getRunById(gone.run_id), undefined);
      assert.equal(await s.latestCheckpoint(gone.run_id), undefined);
      assert.equal(await s.checkpointAt(gone.run_id, 0), undefined);
      assert.deepEqual(await s.history(gone.run_id, { limit: 10 }), []);
      assert.equal(await s.eventAt(gone.run_id, 'go', 0), undefined);
    }
    assert.ok(await exists(s, recent));
    assert.equal((await s.history(recent.run_id, { limit: 10 })).length, 2);
    assert.ok((await s.eventAt(recent.run_id, 'go', 0)) !== undefined);
    assert.equal(await s.findByIdempotencyKey(session, 'k-1'), undefined);
    const again = await s.createRun(newRun(session, { definition_name: name, idempotency_key: 'k-1' }));
    assert.equal((await s.findByIdempotencyKey(session, 'k-1'))?.run_id, again.run_id);
  });

  test('a count policy keeps the newest runs and deletes the rest in bounded batches; a dry run deletes nothing', async () => {
    const s = store();
    const name = flowName();
    const runs: RunRecord[] = [];
    for (let d = 1; d <= 7; d++) runs.push(await runOf(s, { name, at: day(d) }));
    const dry = await s.pruneRuns({ definition_name: name, keep_last: 2, limit: 1, dry_run: true });
    assert.deepEqual(dry, { deleted: 5, by_definition: { [name]: 5 }, inputs_deleted: 0 });
    assert.ok(await exists(s, runs[0]!), 'a dry run deletes nothing');
    const batches: number[] = [];
    for (;;) {
      const { deleted } = await s.pruneRuns({ definition_name: name, keep_last: 2, limit: 2 });
      batches.push(deleted);
      if (deleted < 2) break;
    }
    assert.deepEqual(batches, [2, 2, 1]);
    for (const [i, run] of runs.entries()) assert.equal(await exists(s, run), i >= 5, `run of day ${i + 1}`);
    // Both policies: the newest 2 are kept even when old, older ones only before the instant.
    const both = await s.pruneRuns({ definition_name: name, keep_last: 1, finished_before: day(6), limit: 10 });
    assert.equal(both.deleted, 0);
    assert.equal((await s.pruneRuns({ definition_name: name, keep_last: 1, limit: 10 })).deleted, 1);
    assert.ok(await exists(s, runs[6]!));
  });

  test('runs that finished in the same instant are kept or deleted by creation order', async () => {
    const s = store();
    const name = flowName();
    const runs: RunRecord[] = [];
    for (let i = 0; i < 4; i++) runs.push(await runOf(s, { name, at: day(1) }));
    assert.equal((await s.pruneRuns({ definition_name: name, keep_last: 1, limit: 500 })).deleted, 3);
    for (const [i, run] of runs.entries()) assert.equal(await exists(s, run), i === 3, `run ${i}`);
  });

  test('a run that is pending, running or interrupted is never deleted', async () => {
    const s = store();
    const name = flowName();
    const live = [
      await runOf(s, { name, at: day(1), status: RunStatus.Pending }),
      await runOf(s, { name, at: day(1), status: RunStatus.Running }),
      await runOf(s, { name, at: day(1), status: RunStatus.Interrupted }),
    ];
    const done = await runOf(s, { name, at: day(1) });
    assert.equal((await s.pruneRuns({ definition_name: name, keep_last: 0, limit: 500, dry_run: true })).deleted, 1);
    const result = await s.pruneRuns({ definition_name: name, keep_last: 0, finished_before: day(20), limit: 500 });
    assert.equal(result.deleted, 1);
    assert.equal(await exists(s, done), false);
    for (const run of live) assert.ok(await exists(s, run), `${run.status} run kept`);
  });

  test('a parent with an unfinished child and a child of an unfinished parent are kept until both finish', async () => {
    const s = store();
    const name = flowName();
    const liveParent = await runOf(s, { name, at: day(1), status: RunStatus.Running });
    const orphanedChild = await runOf(s, { name, at: day(1), parent: liveParent.run_id });
    const doneParent = await runOf(s, { name, at: day(1) });
    const liveChild = await runOf(s, { name, at: day(1), status: RunStatus.Running, parent: doneParent.run_id });
    const pairParent = await runOf(s, { name, at: day(1) });
    const pairChild = await runOf(s, { name, at: day(1), parent: pairParent.run_id, status: RunStatus.Failed });
    const first = await s.pruneRuns({ definition_name: name, keep_last: 0, limit: 500 });
    assert.equal(first.deleted, 2);
    assert.equal(await exists(s, pairParent), false);
    assert.equal(await exists(s, pairChild), false);
    for (const kept of [liveParent, orphanedChild, doneParent, liveChild]) assert.ok(await exists(s, kept));
    await finish(s, liveChild);
    await finish(s, liveParent);
    const second = await s.pruneRuns({ definition_name: name, keep_last: 0, limit: 500 });
    assert.equal(second.deleted, 4);
  });

  test('an input still referred to by a kept run survives; one no run refers to goes with its last run', async () => {
    const s = store();
    const name = flowName();
    const shared = JSON.stringify({ shared: randomUUID() });
    const own = JSON.stringify({ own: randomUUID() });
    await runOf(s, { name, at: day(1), input: shared });
    const keeper = await runOf(s, { name, at: day(1), input: shared, status: RunStatus.Running });
    await runOf(s, { name, at: day(1), input: own });
    const result = await s.pruneRuns({ definition_name: name, finished_before: day(2), limit: 500 });
    assert.equal(result.deleted, 2);
    assert.equal(result.inputs_deleted, 1);
    assert.equal(await s.getInput(sha256Hex(shared)), shared);
    assert.equal(await s.getInput(sha256Hex(own)), undefined);
    await finish(s, keeper);
    assert.equal((await s.pruneRuns({ definition_name: name, keep_last: 0, limit: 500 })).inputs_deleted, 1);
    assert.equal(await s.getInput(sha256Hex(shared)), undefined);
    // A start with a pruned input writes it again.
    const again = await runOf(s, { name, at: now(), input: own, status: RunStatus.Running });
    assert.equal(await s.getInput(again.input_sha256), own);
  });

  test('a start sharing the input of the run a prune deletes at the same moment keeps its input', async () => {
    const s = store();
    const name = flowName();
    const input = JSON.stringify({ raced: randomUUID() });
    const sha = sha256Hex(input);
    const session = randomUUID();
    // Each round: the one finished run referring to the input is pruned (and with it the input, unless a run refers
    // to it by then) while a new run with the same input starts; the new run must find its input.
    await runOf(s, { name, at: day(1), input });
    for (let round = 0; round < 30; round++) {
      const [pruned, started] = await Promise.all([
        s.pruneRuns({ definition_name: name, finished_before: day(2), limit: 5 }),
        (async () => {
          await s.putInput(sha, input);
          return s.createRun(newRun(session, { definition_name: name, input_sha256: sha }));
        })(),
      ]);
      assert.equal(pruned.deleted, 1);
      assert.equal(await s.getInput(sha), input, `round ${round}: the new run has its input`);
      const patch = { status: RunStatus.Cancelled, updated_at: day(1) };
      await s.commit({ run_id: started.run_id, expected_record_revision: started.record_revision, patch });
    }
  });

  test('a late cancel request, event or commit on a pruned run finds nothing', async () => {
    const s = store();
    const name = flowName();
    const run = await runOf(s, { name, at: day(1) });
    const current = await s.getRunById(run.run_id);
    assert.ok(current !== undefined);
    assert.equal((await s.pruneRuns({ definition_name: name, keep_last: 0, limit: 1 })).deleted, 1);
    assert.equal(await s.requestCancel(run.run_id, 'late', now()), undefined);
    const event = { run_id: run.run_id, event_id: randomUUID(), name: 'go', payload: {}, sent_at: now() };
    assert.equal(await s.sendEvent(event), 'not_found');
    await assert.rejects(
      s.commit({
        run_id: run.run_id,
        expected_record_revision: current.record_revision,
        patch: { status: RunStatus.Failed, updated_at: now() },
        reopen: true,
      }),
      rimthanCode('not_found'),
    );
    assert.equal(await s.getRunById(run.run_id), undefined);
  });

  test('a prune of every flow applies the policy to each flow it finds', async () => {
    const s = store();
    const [a, b] = [flowName(), flowName()];
    for (const name of [a, b]) {
      await runOf(s, { name, at: new Date(Date.UTC(2000, 0, 1)).toISOString() });
      await runOf(s, { name, at: new Date(Date.UTC(2000, 0, 2)).toISOString() });
    }
    const names = await s.finishedDefinitions();
    assert.ok(names.includes(a) && names.includes(b));
    assert.deepEqual(
      names,
      [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
    );
    const result = await s.pruneRuns({ finished_before: '2000-01-01T12:00:00.000Z', limit: 500 });
    assert.equal(result.by_definition[a], 1);
    assert.equal(result.by_definition[b], 1);
  });

  test('a prune query without a policy, with a bad instant or an out-of-range limit is refused', async () => {
    const s = store();
    const bad = [
      { limit: 10 },
      { keep_last: 1, limit: 0 },
      { keep_last: 1, limit: 501 },
      { keep_last: -1, limit: 10 },
      { finished_before: 'yesterday', limit: 10 },
      { definition_name: '', keep_last: 1, limit: 10 },
    ];
    for (const query of bad) await assert.rejects(s.pruneRuns(query), rimthanCode('invalid_arguments'));
  });
}
