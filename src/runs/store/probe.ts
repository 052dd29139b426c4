/**
 * Looks for an existing run store without creating or changing one: what read-only callers (the operator commands)
 * check before `open()`, which would create a missing SQLite file and migrate an empty database or schema.
 */
import Database from 'better-sqlite3';
import { pgDriver } from '../../postgres/index.js';
import { existsSync, statSync } from 'node:fs';
import { quoteSchema } from './postgres-schema.js';

/** Present, or absent with the reason in a few words. */
export type StoreProbe = { readonly exists: true } | { readonly exists: false; readonly why: string };

const NO_TABLES = 'it holds no Rimthan run store (no schema_version table)';

function probeSqlite(path: string): StoreProbe {
  if (path === ':memory:') return { exists: false, why: 'an in-memory database is never an existing store' };
  if (!existsSync(path)) return { exists: false, why: 'the file does not exist' };
  if (statSync(path).isDirectory()) return { exists: false, why: 'it is a folder, not a database file' };
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
    return found === undefined ? { exists: false, why: NO_TABLES } : { exists: true };
  } finally {
    db.close();
  }
}

async function probePostgres(connectionString: string, schema: string): Promise<StoreProbe> {
  const client = new (pgDriver().Client)({ connectionString, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {
    // A dropped connection fails the query below; nothing else listens.
  });
  await client.connect();
  try {
    const result = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      `${quoteSchema(schema)}.schema_version`,
    ]);
    return result.rows[0]?.present === true ? { exists: true } : { exists: false, why: NO_TABLES };
  } finally {
    await client.end();
  }
}

/**
 * Whether a run store exists at `location` (SQLite file, or PostgreSQL schema, default `public`). Throws what the
 * database throws when it cannot be reached or read (refused connection, unknown database, not a database file).
 */
export async function probeRunStore(
  location: { kind: 'sqlite'; path: string } | { kind: 'postgres'; connectionString: string; schema?: string },
): Promise<StoreProbe> {
  if (location.kind === 'sqlite') return probeSqlite(location.path);
  return probePostgres(location.connectionString, location.schema ?? 'public');
}
