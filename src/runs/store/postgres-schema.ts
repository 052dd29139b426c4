/**
 * Applies the store migrations to PostgreSQL: each pending migration and its schema_version bump in one transaction
 * holding a transaction-level advisory lock, so any number of processes may open the same schema at once.
 */
import type { Pool, PoolClient } from 'pg';
import { RimthanError } from '../../core/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

/** Checks a schema name (lowercase identifier, ≤48 chars) and returns it quoted for SQL. */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new RimthanError('invalid_argument', 'schema must be a lowercase identifier of at most 48 characters');
  }
  return `"${schema}"`;
}

/** Runs `fn` in one transaction on a pooled client; rolls back on any failure. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError instanceof Error ? rollbackError : new Error('rollback failed');
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

async function applyNext(client: PoolClient, schema: string): Promise<boolean> {
  const q = quoteSchema(schema);
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rimthan:runs-store:${schema}`]);
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${q}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${q}.schema_version (version INTEGER NOT NULL)`);
  const rows = await client.query<{ version: number }>(`SELECT version FROM ${q}.schema_version`);
  let version = rows.rows[0]?.version;
  if (version === undefined) {
    await client.query(`INSERT INTO ${q}.schema_version (version) VALUES (0)`);
    version = 0;
  }
  if (version > SCHEMA_VERSION) {
    throw new RimthanError('unavailable', `run store schema version ${version} is newer than this code supports`);
  }
  const migration = MIGRATIONS[version];
  if (migration === undefined) return false;
  for (const sql of migration.postgres) await client.query(sql.replaceAll('{s}', q));
  await client.query(`UPDATE ${q}.schema_version SET version = $1`, [version + 1]);
  return true;
}

/** Brings `schema` (created when missing) to SCHEMA_VERSION; refuses a schema written by newer code. */
export async function migratePostgres(pool: Pool, schema: string): Promise<void> {
  while (await withTransaction(pool, (client) => applyNext(client, schema))) {
    // one migration per transaction until none is pending
  }
}
