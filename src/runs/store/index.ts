/**
 * The run stores: SQLite (embedded default) and PostgreSQL (shared by several workers), both behind RunStore.
 */
import { StoreArgumentError } from './argument-error.js';
import { PostgresRunStore } from './postgres.js';
import { SqliteRunStore } from './sqlite.js';
import type { RunStore, StoreObserver } from './types.js';

export { PostgresRunStore, type PostgresRunStoreOptions } from './postgres.js';
export { SqliteRunStore, type SqliteRunStoreOptions } from './sqlite.js';
export { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.js';
export { probeRunStore, type StoreProbe } from './probe.js';
export { STORE_LIMITS, isAllowedTransition } from './validate.js';
export { StoreArgumentError } from './argument-error.js';
export * from './types.js';

/** Where a run store setting points: a SQLite file or a PostgreSQL connection string. */
export type RunStoreLocation =
  { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly connectionString: string };

/**
 * Reads one store setting: `postgres://…` / `postgresql://…` (PostgreSQL), `sqlite:PATH` or a bare file path (SQLite).
 * Anything else that looks like a URL is refused, so a typo never becomes a file name.
 */
export function parseRunStoreSpec(spec: string): RunStoreLocation {
  const value = spec.trim();
  if (value.length === 0) throw new StoreArgumentError('run store setting is empty');
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', connectionString: value };
  if (/^sqlite:/i.test(value)) {
    const path = value.slice('sqlite:'.length);
    if (path.length === 0) throw new StoreArgumentError('sqlite: needs a file path');
    return { kind: 'sqlite', path };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new StoreArgumentError('run store must be sqlite:PATH, a file path, or a postgres:// / postgresql:// URL');
  }
  return { kind: 'sqlite', path: value };
}

/** Builds (does not open) a store from one setting (see parseRunStoreSpec); `observer` gets its metrics hooks. */
export function openRunStore(spec: string, options: { readonly observer?: StoreObserver } = {}): RunStore {
  const location = parseRunStoreSpec(spec);
  const observer = options.observer === undefined ? {} : { observer: options.observer };
  return location.kind === 'postgres'
    ? new PostgresRunStore({ connectionString: location.connectionString, ...observer })
    : new SqliteRunStore(location.path, observer);
}
