import type { JsonValue } from '../../core/index.js';

/**
 * True when `value` has the same RFC 8785 form as `clean` (`canonicalJson(value) === canonicalJson(clean)`, with
 * anything that cannot be canonicalised never equal), without writing either text. `clean` must be a value known to
 * canonicalise (a strictly parsed
 * token body, or one built from it): plain objects with the same own keys, arrays of the same length, identical
 * strings, equal finite numbers, the same literals. Because every leaf of `value` must equal a leaf of `clean`, a
 * `value` that could not be canonicalised (lone surrogate, non-finite number, undefined member, class instance,
 * excessive depth) is never equal to it.
 */
export function sameAsClean(value: unknown, clean: JsonValue): boolean {
  if (clean === null || typeof clean !== 'object') return value === clean;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(clean)) {
    if (!Array.isArray(value) || value.length !== clean.length) return false;
    for (let i = 0; i < clean.length; i++) if (!sameAsClean(value[i], clean[i] as JsonValue)) return false;
    return true;
  }
  if (Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== Object.keys(clean).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(clean, key)) return false;
    if (!sameAsClean(record[key], clean[key] as JsonValue)) return false;
  }
  return true;
}
