/**
 * Merges a vertex's partial update into the flow state and proves the result is plain, bounded JSON before it can reach
 * a checkpoint. The merged state is a fresh deep-frozen copy, so no vertex can mutate what others see.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';

/** Per-key reducers of a flow (graph.reducers): every write of such a key is folded through its reducer. */
export type Reducers = ReadonlyMap<string, (current: JsonValue | undefined, update: JsonValue) => JsonValue>;

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

/**
 * Writes one key into `target` (through its reducer when it has one); false when the reducer threw. defineProperty: a
 * key named "__proto__" stays an own data property instead of replacing the prototype.
 */
export function applyWrite(target: Record<string, unknown>, key: string, value: unknown, reducers?: Reducers): boolean {
  let next = value;
  const reducer = reducers?.get(key);
  if (reducer !== undefined) {
    try {
      next = reducer(target[key] as JsonValue | undefined, value as JsonValue);
    } catch {
      return false;
    }
  }
  Object.defineProperty(target, key, { value: next, enumerable: true, writable: true, configurable: true });
  return true;
}

/** True for a plain object a vertex may return as its update. */
export function isPlainUpdate(update: unknown): update is JsonObject {
  const proto: unknown = isJsonObject(update) ? Object.getPrototypeOf(update) : undefined;
  return isJsonObject(update) && (proto === Object.prototype || proto === null);
}

/** Shallow-merges `update` (keys whose value is undefined are ignored) into `state`, through the flow's reducers. */
export function mergeUpdate(state: JsonObject, update: unknown, reducers?: Reducers): MergeResult {
  if (update === undefined) return { ok: true, state };
  if (!isPlainUpdate(update)) return { ok: false, reason: 'state update is not a plain object' };
  const merged: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(update)) {
    if (value !== undefined && !applyWrite(merged, key, value, reducers)) {
      return { ok: false, reason: `the reducer of state key ${JSON.stringify(key)} threw` };
    }
  }
  return freezeState(merged);
}
