/**
 * The opaque `workflow_run_list` cursor: base64url of the canonical JSON `{"seq":N,"v":1}`, where N is the store's
 * creation sequence of the last run on the page. Stable (a run's sequence never changes) and strictly decoded: one
 * spelling per cursor, anything else is `invalid_arguments`.
 */
import { canonicalJson, isJsonObject, parseStrictJson } from '../core/index.js';

const ALPHABET = /^[A-Za-z0-9_-]{1,64}$/;
const VERSION = 1;

/** Encodes the creation sequence of the last run returned. */
export function encodeListCursor(seq: number): string {
  return Buffer.from(canonicalJson({ seq, v: VERSION }), 'utf8').toString('base64url');
}

/** The creation sequence a cursor encodes, or undefined when the cursor is not one this tool issued. */
export function decodeListCursor(cursor: string): number | undefined {
  if (!ALPHABET.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.toString('base64url') !== cursor) return undefined;
  const text = bytes.toString('utf8');
  const parsed = parseStrictJson(text, { maxBytes: 64, maxDepth: 1 });
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const { seq, v } = parsed.value;
  if (v !== VERSION || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  if (Object.keys(parsed.value).length !== 2 || canonicalJson(parsed.value) !== text) return undefined;
  return seq;
}
