/**
 * The tracing hook of the MCP request path: what server.ts tells a tracer about each request it answers, and how it
 * ended. The hook knows nothing of OpenTelemetry (the CLI wires one from src/observability); this room only reads the
 * facts off the request: the method, the tool or prompt name when the profile serves one by that name (a name a client
 * made up is not recorded), the JSON-RPC id, the protocol revision, and the W3C trace context a client put in
 * `params._meta` (`traceparent`, `tracestate`). Never arguments, results or the caller.
 */
import type { JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import { TRACEPARENT_META_KEY, TRACESTATE_META_KEY } from '@modelcontextprotocol/server';

/** The facts of one MCP request a tracer may record. */
export interface McpRequestFacts {
  readonly method: string;
  /** tools/call: the name of a tool the profile serves. */
  readonly tool?: string | undefined;
  /** prompts/get: the name of a prompt the profile serves. */
  readonly prompt?: string | undefined;
  /** The JSON-RPC id as text. */
  readonly requestId?: string | undefined;
  /** The MCP revision of the request (the 2026 `_meta` envelope), or the one negotiated on this connection. */
  readonly protocolVersion?: string | undefined;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/** How a request ended: `tool_error` (a tools/call result with `isError`), or the JSON-RPC error code it failed with. */
export interface McpRequestEnd {
  readonly errorType?: string | undefined;
  readonly rpcCode?: number | undefined;
}

/** Called as a request starts; the function it returns is called once, when the request ended. */
export type McpRequestTracer = (facts: McpRequestFacts) => (end: McpRequestEnd) => void;

/** The names a profile serves, so only those are recorded. */
export interface ServedNames {
  readonly tools: ReadonlySet<string>;
  readonly prompts: ReadonlySet<string>;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The facts of `request` (see the module comment). */
export function requestFacts(
  request: JSONRPCRequest,
  ctx: ServerContext,
  served: ServedNames,
  protocol: { readonly envelopeKey: string; readonly negotiated: string | undefined },
): McpRequestFacts {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const meta = (params['_meta'] ?? {}) as Record<string, unknown>;
  const name = text(params['name']);
  const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
  const id = request.id;
  return {
    method: request.method,
    tool: request.method === 'tools/call' && name !== undefined && served.tools.has(name) ? name : undefined,
    prompt: request.method === 'prompts/get' && name !== undefined && served.prompts.has(name) ? name : undefined,
    requestId: typeof id === 'number' || typeof id === 'string' ? String(id) : undefined,
    protocolVersion:
      text(envelope?.[protocol.envelopeKey]) ??
      protocol.negotiated ??
      (request.method === 'initialize' ? text(params['protocolVersion']) : undefined),
    traceparent: text(meta[TRACEPARENT_META_KEY]),
    tracestate: text(meta[TRACESTATE_META_KEY]),
  };
}

/** How a handler's answer ended for the span: a tool error, or success. */
export function resultEnd(result: unknown): McpRequestEnd {
  return (result as { isError?: unknown } | null)?.isError === true ? { errorType: 'tool_error' } : {};
}

/** How a thrown error ends the span: its JSON-RPC code, or -32603 (internal error) for anything else. */
export function errorEnd(error: unknown): McpRequestEnd {
  const code = (error as { code?: unknown } | null)?.code;
  return { rpcCode: typeof code === 'number' && Number.isSafeInteger(code) ? code : -32603 };
}
