/** The one check every store applies before a schema name is used in SQL. */
import { RimthanError } from '../core/errors.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

/** Checks a schema name (lowercase identifier, ≤48 chars) and returns it quoted for SQL. */
export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new RimthanError('invalid_arguments', 'schema must be a lowercase identifier of at most 48 characters');
  }
  return `"${schema}"`;
}
