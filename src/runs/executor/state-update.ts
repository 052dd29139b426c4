/**
 * Merges a vertex's partial update into the flow state and proves the result is plain, bounded JSON before it can reach
 * a checkpoint. The merged state is a fresh deep-frozen copy, so no vertex can mutate what others see.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';

/** Flow state is at most 1 MiB canonical JSON (the store's checkpoint limit is 4 MiB for the whole document). */
export const MAX_FLOW_STATE_BYTES = 1024 * 1024;

export type MergeResult = { ok: true; state: JsonObject } | { ok: false; reason: string };

/** Freezes a JSON value and everything inside it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Checks, copies and freezes a state object (the initial state or a merged one). */
export function freezeState(state: unknown): MergeResult {
  if (!isJsonObject(state)) return { ok: false, reason: 'state is not a JSON object' };
  let text: string;
  try {
    text = canonicalJson(state);
  } catch {
    return { ok: false, reason: 'state is not plain JSON' };
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_FLOW_STATE_BYTES) {
    return { ok: false, reason: `state exceeds ${MAX_FLOW_STATE_BYTES} bytes` };
  }
  return { ok: true, state: deepFreeze(JSON.parse(text) as JsonObject) };
}

/** Shallow-merges `update` (keys whose value is undefined are ignored) into `state`. */
export function mergeUpdate(state: JsonObject, update: unknown): MergeResult {
  if (update === undefined) return { ok: true, state };
  const proto: unknown = isJsonObject(update) ? Object.getPrototypeOf(update) : undefined;
  if (!isJsonObject(update) || (proto !== Object.prototype && proto !== null)) {
    return { ok: false, reason: 'state update is not a plain object' };
  }
  const merged: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(update)) {
    // defineProperty: a key named "__proto__" stays an own data property instead of replacing the prototype.
    if (value !== undefined)
      Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return freezeState(merged);
}
