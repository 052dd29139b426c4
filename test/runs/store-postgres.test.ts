import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresRunStore } from '../../src/runs/store/postgres.js';
import { describeRunStoreConformance } from './store-conformance.js';
import { sleep } from './store-fixtures.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../support/postgres.js';

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
