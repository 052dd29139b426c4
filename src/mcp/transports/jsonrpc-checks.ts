/**
 * The JSON-RPC checks a body (Streamable HTTP or one stdio line) passes after strict parsing and before the SDK sees it (batch size,
 * repeated ids, non-object messages, `__proto__` keys, numbers JSON cannot carry).
 */
import { isJsonObject } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { RpcCode } from '../server/wire.js';

/** Most messages one JSON-RPC batch may carry (the SDK allows 100; no MCP client we know sends batches at all). */
export const MAX_BATCH_MESSAGES = 32;

/** Whether a decoded body may go on to the SDK, and if not, the JSON-RPC error to answer with. */
export type MessageVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: RpcCode; readonly message: string; readonly id: string | number | null };

/**
 * Checks what the SDK would otherwise accept silently: an empty or oversized batch, a batch repeating a request id
 * (the SDK answers only one of them), a non-object message, a `__proto__` key anywhere (the SDK's schema parsing drops
 * it or turns it into a prototype, so the caller's document would change unseen), and a number JSON cannot carry
 * (`1e400` parses to Infinity, which re-serializes as null). Runs on the strictly parsed body, before the SDK.
 */
export function inspectMessages(value: JsonValue, opts: { readonly batches: boolean }): MessageVerdict {
  const batch = Array.isArray(value);
  const requestId = !batch && isJsonObject(value) ? value['id'] : undefined;
  const id = typeof requestId === 'string' || typeof requestId === 'number' ? requestId : null;
  const refuse = (message: string): MessageVerdict => ({ ok: false, code: RpcCode.InvalidRequest, message, id });
  const messages = batch ? value : [value];
  if (batch) {
    if (!opts.batches) return refuse('JSON-RPC batches are not supported on this transport');
    if (messages.length === 0) return refuse('an empty batch is not a valid request');
    if (messages.length > MAX_BATCH_MESSAGES) return refuse(`a batch may hold at most ${MAX_BATCH_MESSAGES} messages`);
  }
  const ids = new Set<string>();
  for (const message of messages) {
    if (!isJsonObject(message)) return refuse('each message must be a JSON-RPC object');
    const mid = message['id'];
    if (typeof message['method'] !== 'string' || (typeof mid !== 'string' && typeof mid !== 'number')) continue;
    const key = `${typeof mid}:${String(mid)}`;
    if (ids.has(key)) return refuse('a batch repeats a request id');
    ids.add(key);
  }
  const problem = unsafeContent(value);
  return problem === undefined ? { ok: true } : refuse(problem);
}

/** The first content problem in `value` (iterative: the parser already bounded the depth, not the width). */
function unsafeContent(value: JsonValue): string | undefined {
  const pending: JsonValue[] = [value];
  for (let v = pending.pop(); v !== undefined; v = pending.pop()) {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'a number is outside the range JSON numbers can represent';
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (isJsonObject(v)) {
      if (Object.hasOwn(v, '__proto__')) return 'the key "__proto__" is not accepted';
      for (const key of Object.keys(v)) pending.push(v[key] as JsonValue);
    }
  }
  return undefined;
}
