/**
 * Judges arguments that arrive already parsed (an MCP transport decoded them) exactly as the text entry point would
 * judge their RFC 8785 text, without writing that text: a value canonical JSON cannot carry is refused first, then
 * the raw size cap, then the strict parser's structural rules (nesting, member count, prototype keys) in canonical
 * key order, so the first refusal named is the one the text would have produced. What passes is handed on with its
 * top-level keys in canonical order (the order the parsed text would have had).
 */
import {
  hasLoneSurrogate,
  isJsonObject,
  MAX_CANONICAL_DEPTH,
  STRICT_JSON_DEFAULTS,
  StrictJsonReason,
} from '../core/index.js';
import type { JsonObject, JsonValue } from '../core/index.js';
import { ARGUMENT_LIMITS, notAcceptedMessage, SIZE_LIMIT_MESSAGE } from './strict-args.js';

/** The refusal of a value that has no JSON text at all (the words the runs profile has always used). */
export const UNREPRESENTABLE_MESSAGE =
  'arguments cannot be written as JSON (nested too deep, a number out of range or a lone surrogate)';

export type ParsedArguments =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly message: string };

const MAX_KEYS = STRICT_JSON_DEFAULTS.maxKeys;
// eslint-disable-next-line no-control-regex -- the control range is exactly what JSON must escape
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

interface Walk {
  /** UTF-8 bytes of the canonical text so far. */
  bytes: number;
  members: number;
  /** The strict parser's first structural refusal, in text order. */
  structural: string | undefined;
}

/** Canonical UTF-8 length of a string with its quotes; undefined for a lone surrogate (no JSON text). */
function quotedBytes(text: string): number | undefined {
  if (hasLoneSurrogate(text)) return undefined;
  return NEEDS_ESCAPE.test(text)
    ? Buffer.byteLength(JSON.stringify(text), 'utf8')
    : Buffer.byteLength(text, 'utf8') + 2;
}

/** Walks `value` in canonical order; false when canonical JSON would refuse it. */
function walk(value: unknown, level: number, w: Walk): boolean {
  if (value === null) {
    w.bytes += 4;
    return true;
  }
  switch (typeof value) {
    case 'boolean':
      w.bytes += value ? 4 : 5;
      return true;
    case 'number':
      if (!Number.isFinite(value)) return false;
      w.bytes += String(value).length;
      return true;
    case 'string': {
      const n = quotedBytes(value);
      if (n === undefined) return false;
      w.bytes += n;
      return true;
    }
    case 'object':
      break;
    default:
      return false;
  }
  if (level >= MAX_CANONICAL_DEPTH) return false;
  if (w.structural === undefined && level >= ARGUMENT_LIMITS.maxDepth) w.structural = StrictJsonReason.Depth;
  if (Array.isArray(value)) {
    w.bytes += value.length === 0 ? 2 : value.length + 1;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === undefined || !walk(item, level + 1, w)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  w.bytes += keys.length === 0 ? 2 : keys.length + 1;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) return false;
    const n = quotedBytes(key);
    if (n === undefined) return false;
    w.bytes += n + 1;
    if (w.structural === undefined) {
      if (++w.members > MAX_KEYS) w.structural = StrictJsonReason.Members;
      else if (key === '__proto__') w.structural = StrictJsonReason.PrototypeKey;
    }
    if (!walk(member, level + 1, w)) return false;
  }
  return true;
}

/** Top-level members in canonical key order; a top-level -0 becomes 0, as its canonical text "0" would parse. */
function canonicalOrder(value: JsonObject): JsonObject {
  const ordered: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    const member = value[key] as JsonValue;
    ordered[key] = Object.is(member, -0) ? 0 : member;
  }
  return ordered;
}

/** Checks parsed arguments as their canonical text would be checked; see the module comment. */
export function checkParsedArguments(value: unknown): ParsedArguments {
  const w: Walk = { bytes: 0, members: 0, structural: undefined };
  if (!walk(value, 0, w)) return { ok: false, message: UNREPRESENTABLE_MESSAGE };
  if (w.bytes > ARGUMENT_LIMITS.maxBytes) return { ok: false, message: SIZE_LIMIT_MESSAGE };
  if (w.structural !== undefined) return { ok: false, message: notAcceptedMessage(w.structural) };
  const json = value as JsonValue;
  return { ok: true, value: isJsonObject(json) ? canonicalOrder(json) : json };
}
