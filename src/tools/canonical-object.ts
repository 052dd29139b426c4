/**
 * RFC 8785 canonicalisation of a caller's object (`input`, `resume`): the canonical text (what is hashed and stored)
 * and the object it denotes (what is validated and handed to the engine).
 */
import { canonicalJson, sha256Hex } from '../core/index.js';
import type { JsonObject, SchemaIssue } from '../core/index.js';

export type CanonicalObject =
  | { readonly ok: true; readonly text: string; readonly value: JsonObject; readonly sha256: string }
  | { readonly ok: false };

/** Canonicalises a decoded object; refuses what JSON cannot carry faithfully (e.g. a number that overflowed). */
export function canonicalObject(value: JsonObject): CanonicalObject {
  try {
    const text = canonicalJson(value);
    return { ok: true, text, value: JSON.parse(text) as JsonObject, sha256: sha256Hex(text) };
  } catch {
    return { ok: false };
  }
}

/** The keyword and schema path of the first issue; never the value or the validator's own message. */
export function firstIssue(issues: readonly SchemaIssue[]): string {
  const issue = issues[0];
  return issue === undefined ? 'schema violation' : `${issue.keyword} at ${issue.schemaPath}`;
}
