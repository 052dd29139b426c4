/**
 * Concurrency limits per key on one SQLite store (FlowSpec.concurrency): 200 concurrent starts never execute more than
 * the limit per key and all complete; a waiting run can be cancelled and frees nothing; waiting runs stay waiting over
 * a restart and run on the next supervisor; a key function that fails refuses the start; register checks the limit.
 */
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { RunStatus, type RunRecord } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import type { SessionController } from '../../../src/runs/supervisor/types.js';
import { badKeyFlow, ConcurrencyProbe, Gate, gatedFlow, limitedFlow } from '../fixtures/limited-flows.js';
import { closedSchema, createPendingRun, tempStore, waitForStatus } from '../helpers.js';
import { limitedLoad } from './concurrency-load.js';

function catalogWith(probe: ConcurrencyProbe, gate: Gate): FlowCatalog {
  const c = new FlowCatalog();
  c.register(limitedFlow(probe));
  c.register(gatedFlow(gate));
  c.register(badKeyFlow);
  return c;
}

async function startNew(session: SessionController, name: string, input: { n: number }): Promise<RunRecord> {
  const outcome = await session.startNew({
    definitionName: name,
    definitionVersion: 'v1',
    input,
    parentRunId: null,
    idempotencyKey: null,
    mintRunId: () => randomUUID(),
    now: () => new Date().toISOString(),
  });
  assert.equal(outcome.kind, 'started');
  return (outcome as { run: RunRecord }).run;
}

describe('concurrency limits per key (SQLite)', () => {
  test('200 concurrent starts: never more than the limit per key at once, all complete', async () => {
    const fx = await tempStore();
    const probe = new ConcurrencyProbe();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(probe, new Gate()), concurrency: 32 });
    await supervisor.start();
    try {
      await limitedLoad([{ store: fx.store, supervisor }], probe);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('cancelling a waiting run works and frees nothing', async () => {
    const fx = await tempStore();
    const gate = new Gate();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(new ConcurrencyProbe(), gate) });
    await supervisor.start();
    try {
      const session = supervisor.forSession(randomUUID());
      const a = await startNew(session, 'gated_flow', { n: 1 });
      const b = await startNew(session, 'gated_flow', { n: 2 });
      const c = await startNew(session, 'gated_flow', { n: 3 });
      assert.deepEqual(
        [b, c].map((r) => [r.status, r.status_summary]),
        [
          [RunStatus.Pending, SLOT_WAIT_SUMMARY],
          [RunStatus.Pending, SLOT_WAIT_SUMMARY],
        ],
      );
      await waitForStatus(fx.store, a.run_id, RunStatus.Running);
      const cancelled = await session.cancel(b.run_id, 'not needed');
      assert.equal(cancelled.record.status, RunStatus.Cancelled);
      assert.equal(cancelled.idempotent, false);
      const stillWaiting = await fx.store.getRunById(c.run_id);
      assert.equal(stillWaiting?.status, RunStatus.Pending, 'the holder still holds the only slot');
      assert.equal(stillWaiting?.status_summary, SLOT_WAIT_SUMMARY);
      gate.open();
      await waitForStatus(fx.store, a.run_id, RunStatus.Completed);
      await waitForStatus(fx.store, c.run_id, RunStatus.Completed);
      assert.equal((await fx.store.getRunById(b.run_id))?.status, RunStatus.Cancelled);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('a run created first and started later (start(runId)) waits for its slot the same way', async () => {
    const fx = await tempStore();
    const gate = new Gate();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(new ConcurrencyProbe(), gate) });
    await supervisor.start();
    try {
      const sessionId = randomUUID();
      const session = supervisor.forSession(sessionId);
      const a = await startNew(session, 'gated_flow', { n: 1 });
      const created = await createPendingRun(fx.store, {
        sessionId,
        name: 'gated_flow',
        version: 'v1',
        input: { n: 2 },
      });
      const b = await session.start(created.run_id);
      assert.deepEqual([b.status, b.status_summary, b.checkpoint_revision], [RunStatus.Pending, SLOT_WAIT_SUMMARY, 0]);
      assert.equal(
        (await session.start(created.run_id)).record_revision,
        b.record_revision,
        'a repeated start is a no-op',
      );
      gate.open();
      await waitForStatus(fx.store, a.run_id, RunStatus.Completed);
      await waitForStatus(fx.store, b.run_id, RunStatus.Completed);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('waiting runs stay waiting over a restart and run on the next supervisor', async () => {
    const fx = await tempStore();
    const first = new Supervisor({
      store: fx.store,
      catalog: catalogWith(new ConcurrencyProbe(), new Gate()),
      leaseMs: 500,
      stopGraceMs: 20,
    });
    await first.start();
    const session = first.forSession(randomUUID());
    const runs = [
      await startNew(session, 'gated_flow', { n: 1 }),
      await startNew(session, 'gated_flow', { n: 2 }),
      await startNew(session, 'gated_flow', { n: 3 }),
    ];
    await waitForStatus(fx.store, runs[0]?.run_id ?? '', RunStatus.Running);
    await first.stop(); // the gate never opened: the holder's vertex is aborted, its run stays running
    await fx.store.close();
    const reopened = new SqliteRunStore(fx.path);
    await reopened.open();
    const after = await Promise.all(runs.map((r) => reopened.getRunById(r.run_id)));
    assert.deepEqual(
      after.map((r) => r?.status),
      [RunStatus.Running, RunStatus.Pending, RunStatus.Pending],
    );
    const gate = new Gate();
    gate.open();
    const second = new Supervisor({
      store: reopened,
      catalog: catalogWith(new ConcurrencyProbe(), gate),
      leaseMs: 500,
    });
    await second.start();
    try {
      for (const r of runs) await waitForStatus(reopened, r.run_id, RunStatus.Completed);
    } finally {
      await second.stop();
      await reopened.close();
      await fx.cleanup();
    }
  });

  test('a key function that throws or answers an empty key refuses the start; nothing is created', async () => {
    const fx = await tempStore();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(new ConcurrencyProbe(), new Gate()) });
    await supervisor.start();
    try {
      const sessionId = randomUUID();
      const session = supervisor.forSession(sessionId);
      for (const n of [-1, 101]) {
        const outcome = await session.startNew({
          definitionName: 'bad_key_flow',
          definitionVersion: 'v1',
          input: { n },
          parentRunId: null,
          idempotencyKey: null,
          mintRunId: () => randomUUID(),
          now: () => new Date().toISOString(),
        });
        assert.equal(outcome.kind, 'refused');
        const refusal = outcome as { code: string; message?: string };
        assert.equal(refusal.code, 'invalid_input');
        assert.match(refusal.message ?? '', /concurrency key/);
        assert.doesNotMatch(refusal.message ?? '', /secret/);
      }
      assert.deepEqual(await fx.store.listRuns(sessionId, { limit: 10 }), []);
      const ok = await startNew(session, 'bad_key_flow', { n: 5 });
      await waitForStatus(fx.store, ok.run_id, RunStatus.Completed);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('register checks the limit and the key function', () => {
    const flow = (concurrency: unknown) =>
      defineFlow({
        name: 'limit_check',
        version: `v${randomUUID()}`,
        description: '',
        inputSchema: closedSchema({}),
        concurrency: concurrency as { limit: number },
        graph: { start: 'a', vertices: { a: { run: () => undefined } } },
      });
    const catalog = new FlowCatalog();
    for (const bad of [{ limit: 0 }, { limit: 10_001 }, { limit: 1.5 }, { limit: 2, key: 'input.key' }, 3]) {
      assert.throws(
        () => catalog.register(flow(bad)),
        (error: unknown) => (error as { code?: string }).code === 'invalid_definition',
      );
    }
    assert.equal(catalog.register(flow({ limit: 10_000 })).concurrency?.limit, 10_000);
    assert.equal(catalog.register(flow({ limit: 1, key: () => 'k' })).concurrency?.keyed, true);
  });
});
