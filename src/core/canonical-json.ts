import { RimthanError } from './errors.js';

/** Deepest nesting canonicalJson accepts; deeper values are refused rather than risking the stack. */
export const MAX_CANONICAL_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds a UTF-16 surrogate that is not part of a pair (not representable in UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

interface Fragment {
  readonly text: string;
  /** Nesting of the deepest object or array below the fragment's root (the root itself is 0). */
  readonly depth: number;
}

/** Canonical text of deep-frozen objects, keyed by identity; see {@link freezeCanonicalFragment}. */
const fragments = new WeakMap<object, Fragment>();

function deepFreeze(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return depth - 1;
  let deepest = depth;
  for (const member of Object.values(value)) deepest = Math.max(deepest, deepFreeze(member, depth + 1));
  Object.freeze(value);
  return deepest;
}

/**
 * Deep-freezes `value`, computes its canonical text once (throwing like {@link canonicalJson} when it has none) and
 * remembers it, so every later `canonicalJson` of a value that embeds this very object copies the text instead of
 * re-escaping it. For immutable fragments reused on hot paths (a release's step payloads); freezing guarantees the
 * remembered text can never go stale. Returns `value`.
 */
export function freezeCanonicalFragment<T extends object>(value: T): T {
  const depth = deepFreeze(value, 0);
  fragments.set(value, { text: canonicalJson(value), depth });
  return value;
}

/** True when `value` is an object registered by {@link freezeCanonicalFragment}: deep-frozen, so it can never change. */
export function isFrozenFragment(value: unknown): value is object {
  return typeof value === 'object' && value !== null && fragments.has(value);
}

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, ECMAScript number formatting,
 * minimal string escaping, no whitespace. Equal JSON values give byte-identical text, so digests over it are stable.
 * Refuses what JSON cannot carry faithfully: non-finite numbers, lone surrogates, undefined, functions, bigints,
 * symbols, class instances, and nesting deeper than {@link MAX_CANONICAL_DEPTH}.
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0);
}

/**
 * `canonicalJson({ ...record, ...extra })` for a plain object `record` that has none of `extra`'s keys (refused
 * otherwise), without copying `record`: how a signer adds its own members to a body it was given.
 */
export function canonicalJsonWithMembers(record: object, extra: Readonly<Record<string, unknown>>): string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw refuse('a non-object record');
  return writeObject(record, extra, 0);
}

// String concatenation (V8 ropes) beats collecting parts for the many short pieces canonical text is made of.
function write(value: unknown, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw refuse('a non-finite number');
      return String(value); // Number::toString, exactly what JSON.stringify and RFC 8785 use for finite numbers

    case 'string':
      return quote(value);
    case 'object':
      break;
    default:
      throw refuse(`a ${typeof value}`);
  }
  const fragment = fragments.get(value);
  if (fragment !== undefined) {
    if (depth + fragment.depth >= MAX_CANONICAL_DEPTH) throw refuse('nesting deeper than the limit');
    return fragment.text;
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw refuse('nesting deeper than the limit');
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], depth + 1);
    }
    return out + ']';
  }
  return writeObject(value, undefined, depth);
}

/**
 * The members of `value` and of `extra` (whose keys must not occur in `value`) as one canonical object, without
 * building the merged object.
 */
function writeObject(value: object, extra: Readonly<Record<string, unknown>> | undefined, depth: number): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw refuse('a non-plain object');
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (extra !== undefined) {
    for (const key of Object.keys(extra)) {
      if (Object.prototype.hasOwnProperty.call(record, key)) throw refuse(`a member that is also added (${key})`);
      keys.push(key);
    }
  }
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const member = extra !== undefined && Object.prototype.hasOwnProperty.call(extra, key) ? extra[key] : record[key];
    if (member === undefined) throw refuse('an undefined member');
    if (i > 0) out += ',';
    out += quote(key) + ':' + write(member, depth + 1);
  }
  return out + '}';
}

// Characters JSON must escape, and surrogates (which need the exact lone-surrogate check).
// eslint-disable-next-line no-control-regex -- the control range is exactly what JSON must escape
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  // Most strings (ids, digests, versions) need no escaping at all: skip the general encoder for them.
  if (!NEEDS_ESCAPE.test(text)) return '"' + text + '"';
  const quoted = JSON.stringify(text);
  // Well-formed JSON.stringify escapes a lone surrogate as \udXXX and writes pairs raw, so the (slower) exact check
  // is needed only when that escape, or a literal backslash followed by "ud", appears in the output.
  if (quoted.includes('\\ud') && hasLoneSurrogate(text)) throw refuse('a lone surrogate');
  return quoted;
}

function refuse(what: string): RimthanError {
  return new RimthanError('invalid_json', `value cannot be canonicalised: it contains ${what}`);
}
