/**
 * The one place tests learn whether PostgreSQL is available. When it is not, PostgreSQL suites skip with the reason,
 * except under `CI=true`, where an unreachable server is a failure (CI must prove the PostgreSQL backend).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';

export const TEST_PG_URL = process.env['RIMTHAN_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema name no other test run uses. */
export function uniqueSchema(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Why PostgreSQL cannot be used, or undefined when it answers. Never includes the URL (it may hold a password). */
async function unreachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
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

/**
 * Checks PostgreSQL once per test file: returns the skip reason (undefined when reachable) and, under CI, registers a
 * failing test when it is unreachable.
 */
export async function postgresSkipReason(): Promise<string | undefined> {
  const reason = await unreachable();
  if (reason !== undefined && process.env['CI'] === 'true') {
    test('PostgreSQL is reachable under CI', () => assert.fail(reason));
  }
  return reason;
}

/** Runs `fn` with a connected client and always disconnects it. */
export async function withPgClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops a test schema and everything in it. */
export function dropSchema(schema: string): Promise<void> {
  return withPgClient(async (client) => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
}
