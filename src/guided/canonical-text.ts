/**
 * Canonical JSON text (RFC 8785, the same text as core's `canonicalJson`) that reuses the text of frozen release
 * fragments. A step payload is a pure function of the release and the host binding class, built once per release
 * scope, deep-frozen and registered here with its canonical text; every result that embeds it then copies that text
 * instead of re-escaping kilobytes of asset content on every call. Only objects frozen by
 * {@link freezeCanonicalFragment} are registered, so a registered text can never go stale, and objects that arrive in
 * tool arguments (parsed JSON) are never registered.
 */
import { canonicalJson, MAX_CANONICAL_DEPTH, RimthanError } from '../core/index.js';
import type { JsonObject } from '../core/index.js';

interface Fragment {
  readonly text: string;
  /** Nesting of the deepest object or array below the fragment's root (the root itself is 0). */
  readonly depth: number;
}

const fragments = new WeakMap<object, Fragment>();

function refuse(what: string): RimthanError {
  return new RimthanError('invalid_json', `value cannot be canonicalised: it contains ${what}`);
}

/** Freezes every object and array reachable from `value`; returns the deepest nesting below it. */
function deepFreeze(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return depth - 1;
  let deepest = depth;
  for (const member of Object.values(value)) deepest = Math.max(deepest, deepFreeze(member, depth + 1));
  Object.freeze(value);
  return deepest;
}

/**
 * Deep-freezes `value`, computes its canonical text once (throws like `canonicalJson` when it has none) and registers
 * it, so {@link canonicalText} reuses the text wherever the very same object is embedded. Returns `value`.
 */
export function freezeCanonicalFragment<T extends JsonObject>(value: T): T {
  const depth = deepFreeze(value, 0);
  fragments.set(value, { text: canonicalJson(value), depth });
  return value;
}

/**
 * `canonicalJson(value)`, byte for byte and with the same refusals, reusing the registered text of frozen fragments.
 * Leaves (strings, numbers, literals) and anything unregistered go through core's canonicaliser.
 */
export function canonicalText(value: unknown): string {
  return write(value, 0);
}

function write(value: unknown, depth: number): string {
  if (typeof value !== 'object' || value === null) return canonicalJson(value);
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
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw refuse('a non-plain object');
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const member = record[key];
    if (member === undefined) throw refuse('an undefined member');
    if (i > 0) out += ',';
    out += canonicalJson(key) + ':' + write(member, depth + 1);
  }
  return out + '}';
}
