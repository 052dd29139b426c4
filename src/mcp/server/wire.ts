/**
 * Wire-level pieces every MCP handler shares: JSON-RPC error codes, the error type the SDK turns into a clean JSON-RPC
 * error, and the private-cache `_meta` marker. Nothing here knows about workflows or runs.
 */
import type { JsonObject } from '../../core/index.js';

/** JSON-RPC and MCP error codes we answer with. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  /** MCP 2026-07-28: the request needs a client capability (e.g. an extension) the client did not declare. */
  MissingRequiredClientCapability: -32021,
} as const;
export type RpcCode = (typeof RpcCode)[keyof typeof RpcCode];

/**
 * An error the SDK's protocol layer sends as a JSON-RPC error with exactly this code, message and data. (The SDK's own
 * `McpError` repeats "MCP error <code>:" inside the message on the wire; a plain Error with a numeric `code` does not.)
 */
export class JsonRpcFault extends Error {
  override readonly name = 'JsonRpcFault';
  readonly code: RpcCode;
  readonly data?: JsonObject;

  constructor(code: RpcCode, message: string, data?: JsonObject) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** The `_meta` key telling clients and intermediaries that a listing or resource is private to this caller. */
export const CACHE_SCOPE_META_KEY = 'dev.rimthan/cache-scope';

/** `_meta` for every listing, tool, resource, template and prompt we serve: private cache scope. */
export function privateCacheMeta(): { [CACHE_SCOPE_META_KEY]: 'private' } {
  return { [CACHE_SCOPE_META_KEY]: 'private' };
}

/**
 * `ttlMs` of the cacheable results on 2026-07-28 traffic (their `cacheScope` is always `private`). `static`: what is
 * fixed for the life of the process (the tool list, templates, prompts); `release`: what follows the active release
 * (the resource list, resource reads), which an activation may change at any moment, so it is not cached at all.
 */
export const LISTING_TTL_MS = { static: 60_000, release: 0 } as const;

/** The generic answer for a fault of ours: no stack, no cause, no participant data. */
export function internalFault(): JsonRpcFault {
  return new JsonRpcFault(RpcCode.InternalError, 'internal error');
}
