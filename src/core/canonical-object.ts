/**
 * RFC 8785 canonicalisation of a caller's object (`input`, `resume`): the canonical text (what is hashed and stored)
 * and the object it denotes (what is validated and handed to the engine).
 */
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './digest.js';
import type { JsonObject } from './json.js';
import type { SchemaIssue } from './schema.js';

/** Most UTF-8 bytes of an `input` / `resume` document in its canonical (RFC 8785) form. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export type CanonicalObject =
  | { readonly ok: true; readonly text: string; readonly value: JsonObject; readonly sha256: string }
  | { readonly ok: false; readonly message: string };

/**
 * Canonicalises a decoded object; refuses what JSON cannot carry faithfully (e.g. a number that overflowed) and a
 * document whose canonical form exceeds 256 KiB. The limit is on the canonical bytes (what is hashed and stored):
 * canonical numbers can be longer than the caller's spelling (`1e20` becomes 21 digits), so the raw argument cap alone
 * does not bound them.
 */
export function canonicalObject(value: JsonObject): CanonicalObject {
  let text: string;
  try {
    text = canonicalJson(value);
  } catch {
    return { ok: false, message: 'cannot be canonicalised as RFC 8785 JSON' };
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) {
    return { ok: false, message: `exceeds ${MAX_DOCUMENT_BYTES} bytes in its canonical RFC 8785 form` };
  }
  return { ok: true, text, value: JSON.parse(text) as JsonObject, sha256: sha256Hex(text) };
}

/** The keyword and schema path of the first issue; never the value or the validator's own message. */
export function firstIssue(issues: readonly SchemaIssue[]): string {
  const issue = issues[0];
  return issue === undefined ? 'schema violation' : `${issue.keyword} at ${issue.schemaPath}`;
}
