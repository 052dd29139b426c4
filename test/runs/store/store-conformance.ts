/**
 * One behavioural suite every RunStore backend must pass (SQLite and PostgreSQL call it; no backend copies a case),
 * organised by the store's roles: the lifecycle cases here, then the ledger (store-conformance-ledger*.ts), the queue
 * (store-conformance-queue.ts), the insights (store-conformance-insights.ts) and the waits
 * (store-conformance-waits.ts), each in its own describe block.
 *
 * `makeStore` returns a NEW, not yet opened handle on the SAME backing database each time it is called (the suite
 * opens several: a second worker, a reopen after close). `cleanup` removes the backing database after the suite.
 * Cases share the database and isolate themselves with fresh session and run ids.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RunStatus, type RunStore } from '../../../src/runs/store/types.js';
import { INPUT_SHA, INPUT_TEXT, rimthanCode, startRun } from './store-fixtures.js';
import { describeInsightsCases } from './store-conformance-insights.js';
import { describeLedgerBatchCases } from './store-conformance-ledger-batches.js';
import { describeLedgerCases } from './store-conformance-ledger.js';
import { describeQueueCases } from './store-conformance-queue.js';
import { describeWaitCases } from './store-conformance-waits.js';
import { describeConcurrencyCases } from './store-conformance-concurrency.js';
import { describeRetentionCases } from './store-conformance-retention.js';
import { describeScheduleCases } from './store-conformance-schedules.js';

export interface ConformanceOptions {
  /** When set, every case is skipped with this reason. */
  readonly skip?: string;
}

/** Registers the run-store conformance cases for one backend. */
export function describeRunStoreConformance(
  name: string,
  makeStore: () => Promise<RunStore>,
  cleanup: () => Promise<void>,
  options: ConformanceOptions = {},
): void {
  describe(`RunStore conformance: ${name}`, { skip: options.skip ?? false }, () => {
    let store: RunStore;
    const extra: RunStore[] = [];
    const another = async (): Promise<RunStore> => {
      const s = await makeStore();
      await s.open();
      extra.push(s);
      return s;
    };

    before(async () => {
      store = await makeStore();
      await store.open();
    });
    after(async () => {
      for (const s of extra) await s.close();
      await store?.close();
      await cleanup();
    });

    test('open and close are idempotent and a closed store refuses work', async () => {
      const s = await makeStore();
      await s.open();
      await s.open();
      await s.close();
      await s.close();
      await assert.rejects(s.getRunById(randomUUID()), rimthanCode('unavailable'));
    });

    describe('ledger', () => {
      describeLedgerCases(() => store, another);
      describeLedgerBatchCases(() => store);
    });

    describe('queue', () => describeQueueCases(() => store, another));

    describe('insights', () => describeInsightsCases(() => store));

    describe('waits', () => describeWaitCases(() => store, another));

    describe('concurrency', () => describeConcurrencyCases(() => store, another));
    describe('retention', () => describeRetentionCases(() => store));
    describe('schedules', () => describeScheduleCases(() => store, another));

    test('200 concurrent starts are all durable and visible after close and reopen', async () => {
      const session = randomUUID();
      await store.putInput(INPUT_SHA, INPUT_TEXT);
      const started = await Promise.all(Array.from({ length: 200 }, () => startRun(store, session)));
      assert.ok(started.every((r) => r.checkpoint_revision === 0 && r.status === RunStatus.Running));
      await store.close();
      store = await makeStore();
      await store.open();
      const listed = await store.listRuns(session, { limit: 1000 });
      assert.deepEqual(new Set(listed.map((r) => r.run_id)), new Set(started.map((r) => r.run_id)));
      assert.ok(
        listed.every((r) => r.checkpoint_revision === 0 && r.status === RunStatus.Running && r.activity_cursor === 1),
      );
      const checkpoints = await Promise.all(listed.map((r) => store.latestCheckpoint(r.run_id)));
      assert.ok(checkpoints.every((c) => c?.revision === 0));
    });
  });
}
