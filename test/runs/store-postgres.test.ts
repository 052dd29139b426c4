import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresRunStore } from '../../src/runs/store/postgres.js';
import { describeRunStoreConformance } from './store-conformance.js';
import { sleep } from './store-fixtures.js';

const url = process.env['RIMTHAN_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `rimthan_test_${randomBytes(6).toString('hex')}`;

/** Why PostgreSQL cannot be used, or undefined when it answers. Never includes the URL (it may hold a password). */
async function unreachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return `PostgreSQL unreachable (${typeof code === 'string' ? code : 'no answer'}); set RIMTHAN_TEST_PG_URL`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const reason = await unreachable();
if (reason !== undefined && process.env['CI'] === 'true') {
  test('PostgreSQL is reachable under CI', () => assert.fail(reason));
}

describeRunStoreConformance(
  'PostgreSQL',
  () => Promise.resolve(new PostgresRunStore({ connectionString: url, schema })),
  async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  },
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
