/**
 * `migrate-store` keeps concurrency slots: a run that waits for a slot on SQLite still waits on PostgreSQL (no worker
 * claims it), the admitted one is claimable, and once the holder ends a promotion admits the waiting run.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import { migrateStore } from '../../../src/runs/store/migrate-store.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { RunStatus } from '../../../src/runs/store/types.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { INPUT_SHA, INPUT_TEXT, newRun, now, queuedSeed } from './store-fixtures.js';

const reason = await postgresSkipReason();

describe('migrate-store keeps concurrency slots', { skip: reason ?? false }, () => {
  test('a run waiting for a slot on SQLite still waits on PostgreSQL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-migrate-slots-'));
    const schema = uniqueSchema('runs_migrate_slots');
    const source = new SqliteRunStore(join(dir, 'runs.db'));
    const target = new PostgresRunStore({ connectionString: TEST_PG_URL, schema });
    try {
      await source.open();
      await source.putInput(INPUT_SHA, INPUT_TEXT);
      const slot = { key: 'k', limit: 1 };
      const session = randomUUID();
      const runs = [];
      for (let i = 0; i < 2; i++) {
        const record = newRun(session, { definition_name: 'limited_move' });
        runs.push(await source.createLimitedRun(record, queuedSeed(record.run_id), slot));
      }
      const [holder, waiting] = runs as [(typeof runs)[0], (typeof runs)[0]];
      assert.equal(waiting.status_summary, SLOT_WAIT_SUMMARY);
      await source.close();
      await migrateStore({ from: join(dir, 'runs.db'), to: { connectionString: TEST_PG_URL, schema } });
      await target.open();
      const claimed = (await target.claimRuns('w', 60_000, 1000)).map((r) => r.run_id);
      assert.deepEqual(claimed, [holder.run_id], 'only the admitted run is claimable after the move');
      const held = await target.getRunById(holder.run_id);
      if (held === undefined) throw new Error('holder missing');
      await target.commit({
        run_id: held.run_id,
        expected_record_revision: held.record_revision,
        patch: { status: RunStatus.Completed, status_summary: 'done', updated_at: now() },
      });
      assert.deepEqual(await target.promoteAfter(holder.run_id), [waiting.run_id]);
    } finally {
      await target.close();
      await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
