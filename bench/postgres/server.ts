/**
 * The PostgreSQL server the benchmarks use (RIMTHAN_BENCH_PG_URL, default the local test server): URLs of its
 * databases, a short-lived admin connection, the bench's own database (created when missing) and dropping the schemas
 * a suite made. Shared by every suite that measures on PostgreSQL.
 */
import pg from 'pg';
import { BENCH_DATABASE } from './engine.js';

const SERVER = process.env['RIMTHAN_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432';

/** The URL of `database` on the bench server. */
export const pgUrl = (database: string): string => `${SERVER.replace(/\/+$/, '')}/${database}`;

/** Runs `work` on a connection to the server's `postgres` database and always disconnects. */
export async function pgAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl('postgres'), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the bench database when missing and answers its URL; the reason when the server does not answer. */
export async function benchDatabase(): Promise<{ url: string } | { skipped: string }> {
  try {
    await pgAdmin(async (c) => {
      const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DATABASE]);
      if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${BENCH_DATABASE}`);
    });
    return { url: pgUrl(BENCH_DATABASE) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      skipped: `PostgreSQL unreachable (${typeof code === 'string' ? code : 'no answer'}); set RIMTHAN_BENCH_PG_URL`,
    };
  }
}

/** Drops `schemas` (and everything in them) from the bench database. */
export async function dropBenchSchemas(schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl(BENCH_DATABASE) });
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
}
