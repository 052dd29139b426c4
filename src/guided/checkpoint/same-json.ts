import { canonicalJson } from '../../core/index.js';

/** True when two values have the same RFC 8785 form; anything that cannot be canonicalised is never equal. */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
