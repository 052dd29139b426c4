import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isRimthanError } from '../../../src/core/errors.js';
import { approvalFlow, counterFlow } from '../fixtures/test-flows.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { closedSchema, deferred, engineFixture, fullHistory, waitForStatus } from '../helpers.js';

function code(expected: string) {
  return (e: unknown) => isRimthanError(e) && e.code === expected;
}

describe('cancel', () => {
  test('a pending run is cancelled at once, and cancelling it again is idempotent without writing', async () => {
    const f = await engineFixture((c) => c.register(counterFlow));
    try {
      const pending = await f.pending('counter_flow', { count: 1 });
      const first = await f.session.cancel(pending.run_id, '  no longer needed  ');
      assert.equal(first.idempotent, false);
      assert.equal(first.record.status, 'cancelled');
      assert.equal(first.record.status_summary, 'no longer needed');
      const history = await fullHistory(f.store, pending.run_id);
      assert.deepEqual(
        history.map((e) => [e.kind, e.revision, e.message]),
        [['run_cancelled', 0, 'no longer needed']],
      );
      const again = await f.session.cancel(pending.run_id, 'again');
      assert.equal(again.idempotent, true);
      assert.equal(again.record.record_revision, first.record.record_revision, 'nothing written');
      assert.equal(again.record.activity_cursor, 1);
      const late = await f.session.start(pending.run_id);
      assert.equal(late.status, 'cancelled', 'a late start reports the cancelled run and seeds nothing');
      assert.deepEqual(f.checkpointRevisions(pending.run_id), [0]);
    } finally {
      await f.close();
    }
  });

  test('completed and failed runs refuse cancellation with conflict; the reason is bounded', async () => {
    const f = await engineFixture((c) => c.register(counterFlow));
    try {
      const done = await f.started('counter_flow', { count: 1 });
      await waitForStatus(f.store, done.run_id, 'completed');
      await assert.rejects(f.session.cancel(done.run_id, ''), code('conflict'));
      const failed = await f.pending('counter_flow', { count: 'not a number' });
      await assert.rejects(f.session.start(failed.run_id), code('invalid_input'));
      await assert.rejects(f.session.cancel(failed.run_id, ''), code('conflict'));
      const pending = await f.pending('counter_flow', { count: 1 });
      await assert.rejects(f.session.cancel(pending.run_id, 'x'.repeat(513)), code('invalid_arguments'));
      const ok = await f.session.cancel(pending.run_id, '   ');
      assert.equal(ok.record.status_summary, 'cancel requested');
    } finally {
      await f.close();
    }
  });

  test('cancelling a running run aborts the vertex in flight and appends exactly one terminal checkpoint', async () => {
    const entered = deferred<AbortSignal>();
    let afterRan = false;
    const hang = defineFlow<{ n: number }>({
      name: 'hang_flow',
      version: 'v1',
      description: 'blocks until aborted',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      graph: {
        start: 'first',
        vertices: {
          first: { run: ({ state }) => ({ n: state.n + 1 }), next: 'hang' },
          hang: {
            run: async ({ signal }) => {
              entered.resolve(signal);
              await new Promise(() => undefined); // ignores its signal on purpose: cancel must not wait for it
            },
            next: 'after',
          },
          after: {
            run: () => {
              afterRan = true;
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(hang));
    try {
      const ack = await f.started('hang_flow', { n: 1 });
      const signal = await entered.promise;
      const result = await f.session.cancel(ack.run_id, 'operator stop');
      assert.equal(result.idempotent, false);
      assert.equal(result.record.status, 'cancelled');
      assert.equal(signal.aborted, true);
      const history = await fullHistory(f.store, ack.run_id);
      assert.deepEqual(
        history.map((e) => e.kind),
        ['run_started', 'vertex_completed', 'run_cancelled'],
      );
      assert.equal(history.at(-1)?.message, 'operator stop');
      assert.deepEqual(f.checkpointRevisions(ack.run_id), [0, 1, 2]);
      const terminal = await f.store.latestCheckpoint(ack.run_id);
      assert.equal(terminal?.state['status'], 'cancelled');
      assert.equal(terminal?.state['next_vertex'], null);
      assert.equal(afterRan, false);
      assert.equal((await f.session.cancel(ack.run_id, '')).idempotent, true);
      assert.equal(f.supervisor.activeRuns, 0);
    } finally {
      await f.close();
    }
  });

  test('cancelling an interrupted run ends it; a later resume is a conflict', async () => {
    const f = await engineFixture((c) => c.register(approvalFlow));
    try {
      const ack = await f.started('approval_flow', { version: '2.0.0', changes: ['Breaking'] });
      await waitForStatus(f.store, ack.run_id, 'interrupted');
      const result = await f.session.cancel(ack.run_id, 'release withdrawn');
      assert.equal(result.record.status, 'cancelled');
      assert.equal(result.record.interrupt, null);
      assert.equal(result.record.cancel_requested, true);
      await assert.rejects(f.session.resume(ack.run_id, { approved: true }), code('conflict'));
      const kinds = (await fullHistory(f.store, ack.run_id)).map((e) => e.kind);
      assert.deepEqual(kinds, ['run_started', 'vertex_completed', 'run_interrupted', 'run_cancelled']);
    } finally {
      await f.close();
    }
  });
});
