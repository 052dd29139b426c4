/**
 * One release store setting: a folder path, or `postgres://…` / `postgresql://…` with an optional `schema=` query
 * parameter (default `rimthan_releases`), which is taken out before the URL reaches the driver.
 */
import { RimthanError } from '../../core/index.js';
import { DEFAULT_RELEASE_SCHEMA } from './postgres-store.js';

export type ReleaseStoreLocation =
  | { readonly kind: 'folder'; readonly path: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema: string };

const SCHEMA = /^[a-z_][a-z0-9_]{0,47}$/;

/** True when the setting names a PostgreSQL store. */
export function isPostgresSpec(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec.trim());
}

/** Reads a release store setting; throws `invalid_arguments` for a malformed URL or schema. */
export function parseReleaseStoreSpec(spec: string): ReleaseStoreLocation {
  const value = spec.trim();
  if (value.length === 0) throw new RimthanError('invalid_arguments', 'the release store setting is empty');
  if (!isPostgresSpec(value)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      throw new RimthanError('invalid_arguments', 'a release store is a folder or a postgres:// / postgresql:// URL');
    }
    return { kind: 'folder', path: value };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RimthanError('invalid_arguments', 'the PostgreSQL URL does not parse');
  }
  const schema = url.searchParams.get('schema') ?? DEFAULT_RELEASE_SCHEMA;
  if (!SCHEMA.test(schema)) {
    throw new RimthanError('invalid_arguments', 'schema= must be a lowercase identifier of at most 48 characters');
  }
  url.searchParams.delete('schema');
  return { kind: 'postgres', connectionString: url.href, schema };
}
