import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { describeRunStoreConformance } from './store-conformance.js';
import { sleep } from './store-fixtures.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';

const url = TEST_PG_URL;
const schema = uniqueSchema('rimthan_test');
const reason = await postgresSkipReason();

describeRunStoreConformance(
  'PostgreSQL',
  () => Promise.resolve(new PostgresRunStore({ connectionString: url, schema })),
  () => dropSchema(schema),
  reason === undefined ? {} : { skip: reason },
);

describe('PostgreSQL wake-ups', { skip: reason ?? false }, () => {
  test('wake-ups sent at once by one worker all reach another worker', { timeout: 30_000 }, async () => {
    const shared = `${schema}_n`;
    const sender = new PostgresRunStore({ connectionString: url, schema: shared });
    const receiver = new PostgresRunStore({ connectionString: url, schema: shared });
    await sender.open();
    await receiver.open();
    try {
      const ids = Array.from({ length: 300 }, (_, i) => `run-${i}`);
      const heard = new Set<string>();
      const all = new Promise<void>((resolve) => {
        receiver.onNotify((id) => {
          heard.add(id);
          if (ids.every((x) => heard.has(x))) resolve();
        });
      });
      while (!heard.has('probe')) {
        // until the receiver's LISTEN connection is up
        await sender.notify('probe');
        await sleep(50);
      }
      // One over-long id is refused on its own; the 300 others still go out (they share statements).
      const sent = await Promise.allSettled([...ids, 'x'.repeat(300)].map((id) => sender.notify(id)));
      assert.equal(sent.filter((s) => s.status === 'fulfilled').length, ids.length);
      const refused = sent.find((s) => s.status === 'rejected');
      assert.match(String((refused as PromiseRejectedResult).reason), /run_id exceeds/);
      await all;
    } finally {
      await sender.close();
      await receiver.close();
      await dropSchema(shared);
    }
  });

  test('the LISTEN connection reconnects after the server drops it', { timeout: 15_000 }, async () => {
    const isolated = `${schema}_l`;
    const store = new PostgresRunStore({ connectionString: url, schema: isolated });
    const admin = new pg.Client({ connectionString: url });
    await store.open();
    await admin.connect();
    try {
      const heard = new Set<string>();
      store.onNotify((id) => heard.add(id));
      await store.notify('before');
      while (!heard.has('before')) await sleep(10);
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query = $1',
        [`LISTEN "rimthan_runs_${isolated}"`],
      );
      assert.equal(killed.rowCount, 1);
      while (!heard.has('after')) {
        await store.notify('after');
        await sleep(50);
      }
    } finally {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${isolated}" CASCADE`);
      await admin.end();
    }
  });
});
