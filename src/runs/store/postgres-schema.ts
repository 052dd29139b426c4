/**
 * The run store's PostgreSQL migrations, applied by the shared mechanism (src/postgres/migrate.ts): each pending
 * migration and its schema_version bump in one transaction under an advisory lock.
 */
import type { Pool } from 'pg';
import { migrateSchema } from '../../postgres/index.js';
import { MIGRATIONS } from './migrations.js';

export { quoteSchema, withTransaction } from '../../postgres/index.js';

/** Brings `schema` (created when missing) to SCHEMA_VERSION; refuses a schema written by newer code. */
export function migratePostgres(pool: Pool, schema: string): Promise<void> {
  return migrateSchema(pool, schema, {
    migrations: MIGRATIONS,
    versionTable: 'schema_version',
    lockKey: 'rimthan:runs-store',
    what: 'run store',
  });
}
