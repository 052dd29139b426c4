/**
 * The stores' metrics hooks (StoreObserver): every commit batch is reported with its size and duration, and a claim
 * that takes a run whose lease another worker let expire counts as a takeover. Both backends.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { RunStore, StoreObserver } from '../../../src/runs/store/types.js';
import { drainClaimable, startRun, sleep } from './store-fixtures.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';

const pgReason = await postgresSkipReason();

const backends: {
  name: string;
  skip?: string;
  open(o: StoreObserver): Promise<{ store: RunStore; cleanup: () => Promise<void> }>;
}[] = [
  {
    name: 'SQLite',
    async open(observer) {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-observer-'));
      const store = new SqliteRunStore(join(dir, 'runs.db'), { observer });
      await store.open();
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    ...(pgReason === undefined ? {} : { skip: pgReason }),
    async open(observer) {
      const schema = uniqueSchema('runs_observer');
      const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, observer, pool: { max: 2 } });
      await store.open();
      return {
        store,
        cleanup: async () => {
          await store.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`store observer: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('reports commit batches and lease takeovers', async () => {
      const batches: { writes: number; durationMs: number; ok: boolean }[] = [];
      const claims: { runs: number; takeovers: number }[] = [];
      const { store, cleanup } = await backend.open({
        commitBatch: (e) => batches.push(e),
        claimed: (e) => claims.push(e),
      });
      try {
        await drainClaimable(store);
        claims.length = 0;
        const run = await startRun(store, randomUUID());
        assert.ok(
          batches.some((b) => b.ok && b.writes >= 1 && b.durationMs >= 0),
          'the seed commit was reported',
        );
        assert.equal((await store.claimRuns('first', 50, 10)).length, 1);
        await sleep(80); // let the first worker's 50 ms lease run out (a precondition, not a timing assertion)
        const taken = await store.claimRuns('second', 60_000, 10);
        assert.deepEqual(
          taken.map((r) => r.run_id),
          [run.run_id],
        );
        assert.deepEqual(claims, [
          { runs: 1, takeovers: 0 },
          { runs: 1, takeovers: 1 },
        ]);
      } finally {
        await cleanup();
      }
    });
  });
}
