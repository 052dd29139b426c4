/**
 * The `pg` driver, loaded on first use (it is CommonJS, so a synchronous `require` does it): a process that never
 * connects to PostgreSQL — `rimthan serve` on SQLite or the packaged releases — never loads it.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

const requireModule = createRequire(import.meta.url);
let driver: typeof pg | undefined;

/** The `pg` module. */
export function pgDriver(): typeof pg {
  driver ??= requireModule('pg') as typeof pg;
  return driver;
}
