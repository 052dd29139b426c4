/**
 * Migrations as data for a PostgreSQL schema: an ordered list, each pending entry applied together with its version
 * bump in one transaction holding a transaction-level advisory lock, so any number of processes may open the same
 * schema at once. Version N means the first N entries are applied; a schema at a higher version than the list was
 * written by newer code and is refused. Statements use the token `{s}` for the quoted schema name.
 */
import type { Pool, PoolClient } from 'pg';
import { RimthanError } from '../core/errors.js';
import { quoteSchema } from './schema-name.js';
import { withTransaction } from './transaction.js';

export interface PostgresMigration {
  readonly name: string;
  readonly postgres: readonly string[];
}

/** What one store migrates: its list, where its version is kept, the lock it takes, and its name in messages. */
export interface MigrationPlan {
  readonly migrations: readonly PostgresMigration[];
  /** The one-row table holding the version (`schema_version` for the run store). */
  readonly versionTable: string;
  /** The advisory lock key prefix; the schema name is appended. */
  readonly lockKey: string;
  /** The store in messages (`run store`, `release store`). */
  readonly what: string;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

async function applyNext(client: PoolClient, schema: string, plan: MigrationPlan): Promise<boolean> {
  const q = quoteSchema(schema);
  if (!TABLE_NAME.test(plan.versionTable)) throw new RimthanError('invalid_arguments', 'invalid version table name');
  const table = `${q}."${plan.versionTable}"`;
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${plan.lockKey}:${schema}`]);
  const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${q}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER NOT NULL)`);
  const rows = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
  let version = rows.rows[0]?.version;
  if (version === undefined) {
    await client.query(`INSERT INTO ${table} (version) VALUES (0)`);
    version = 0;
  }
  if (version > plan.migrations.length) {
    throw new RimthanError('unavailable', `${plan.what} schema version ${version} is newer than this code supports`);
  }
  const migration = plan.migrations[version];
  if (migration === undefined) return false;
  for (const sql of migration.postgres) await client.query(sql.replaceAll('{s}', q));
  await client.query(`UPDATE ${table} SET version = $1`, [version + 1]);
  return true;
}

/** Brings `schema` (created when missing) to the plan's last version; refuses a schema written by newer code. */
export async function migrateSchema(pool: Pool, schema: string, plan: MigrationPlan): Promise<void> {
  while (await withTransaction(pool, (client) => applyNext(client, schema, plan))) {
    // one migration per transaction until none is pending
  }
}
