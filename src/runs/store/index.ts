/**
 * The run stores: SQLite (embedded default) and PostgreSQL (shared by several workers), both behind RunStore.
 */
import { RimthanError } from '../../core/errors.js';
import { PostgresRunStore } from './postgres.js';
import { SqliteRunStore } from './sqlite.js';
import type { RunStore } from './types.js';

export { PostgresRunStore, type PostgresRunStoreOptions } from './postgres.js';
export { SqliteRunStore, type SqliteRunStoreOptions } from './sqlite.js';
export { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.js';
export { STORE_LIMITS, isAllowedTransition } from './validate.js';
export * from './types.js';

/**
 * Builds (does not open) a store from one setting: `postgres://…` / `postgresql://…` (PostgreSQL), `sqlite:PATH` or a
 * bare file path (SQLite). Anything else that looks like a URL is refused, so a typo never becomes a file name.
 */
export function openRunStore(spec: string): RunStore {
  const value = spec.trim();
  if (value.length === 0) throw new RimthanError('invalid_argument', 'run store setting is empty');
  if (/^postgres(ql)?:\/\//i.test(value)) return new PostgresRunStore({ connectionString: value });
  if (/^sqlite:/i.test(value)) {
    const path = value.slice('sqlite:'.length);
    if (path.length === 0) throw new RimthanError('invalid_argument', 'sqlite: needs a file path');
    return new SqliteRunStore(path);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new RimthanError(
      'invalid_argument',
      'run store must be sqlite:PATH, a file path, or a postgres:// / postgresql:// URL',
    );
  }
  return new SqliteRunStore(value);
}
