/**
 * Keeps the 2025-era wire code for "resource not found". The v2 SDK sends our -32002 (with `data.uri`) as -32602 on
 * every revision: that is what MCP 2026-07-28 asks for, but our 2025-era clients were always answered -32002.
 * {@link keepLegacyResourceCodes} hooks a connected transport: it remembers which `resources/read` requests came
 * without the 2026 `_meta` envelope and, for those only, turns an error answer that carries `data.uri` (only a
 * not-found answer does; a malformed URI is a bare -32602) back into -32002. Everything else passes untouched.
 *
 * It hooks the transport object in place (after the SDK has connected to it) rather than wrapping it: the SDK reads
 * the era of a per-request HTTP transport from the object itself.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { isJsonObject } from '../../core/index.js';
import { RpcCode } from './wire.js';

type RequestId = string | number;

function legacyReadId(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'resources/read' || !('id' in message)) return undefined;
  const meta: unknown = message.params?.['_meta'];
  if (isJsonObject(meta) && meta['io.modelcontextprotocol/protocolVersion'] !== undefined) return undefined;
  return message.id;
}

function restored(message: JSONRPCMessage, pending: Set<RequestId>): JSONRPCMessage {
  if (!('id' in message) || message.id === undefined || !pending.delete(message.id) || !('error' in message)) {
    return message;
  }
  const { error } = message;
  const data: unknown = error.data;
  if (error.code !== RpcCode.InvalidParams || !isJsonObject(data) || typeof data['uri'] !== 'string') return message;
  return { ...message, error: { ...error, code: RpcCode.ResourceNotFound } };
}

/** Hooks `transport` (already connected: its `onmessage` is the SDK's) as the module comment says. */
export function keepLegacyResourceCodes(transport: Transport): void {
  const pending = new Set<RequestId>();
  const deliver = transport.onmessage;
  if (deliver !== undefined) {
    transport.onmessage = (message, extra) => {
      const id = legacyReadId(message);
      if (id !== undefined) pending.add(id);
      deliver(message, extra);
    };
  }
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(restored(message, pending), options);
}
