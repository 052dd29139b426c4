/**
 * Stateless Streamable HTTP on `node:http` (no framework): POST only on the MCP path, a fresh `Server` per request,
 * routed by revision: MCP 2026-07-28 traffic (the `_meta` envelope) goes to the v2 SDK's `createMcpHandler` (which
 * checks the `Mcp-Method`/`Mcp-Name` headers against the body: a mismatch is a 400 JSON-RPC error), 2025-era traffic to
 * a stateless JSON-answering transport (see {@link legacyExchange}). Around both: a request body cap enforced while the body streams in, Host/Origin checks, optional bearer auth, bounded
 * header/request/keep-alive times, and `Cache-Control: private, no-store` on every response (including the ones Node
 * itself would write for a malformed or timed-out request). Nothing is logged per request.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { parseStrictJsonBytes } from '../core/index.js';
import { CACHE_CONTROL, inspectMessages, jsonErrorBody, RequestGuard, sendJsonError } from './http-guards.js';
import { listenHttp } from './listen.js';
import { NO_AUTHENTICATION, staticTokenAuthenticator } from '../identity/index.js';
import type { Authenticator, Principal, ProtectedResourceMetadata } from '../identity/index.js';
import { RpcCode } from './wire.js';
import { continueOnDemand, declaredTooLarge, isClientDisconnect, lingerOnClose, readBody } from './http-body.js';

/** How long a client may take; every value is in milliseconds. */
export interface HttpTimeouts {
  /** To send the complete request headers (slowloris); default 10 s. */
  readonly headersMs?: number;
  /** To send the complete request, body included; default 30 s. */
  readonly requestMs?: number;
  /** An idle keep-alive connection stays open; default 5 s. */
  readonly keepAliveMs?: number;
  /** How often the two limits above are checked; default 1 s. */
  readonly checkIntervalMs?: number;
}

export const HTTP_TIMEOUT_DEFAULTS = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
} as const;

export interface HttpTransportOptions {
  /** Listen address; default 127.0.0.1. */
  readonly host?: string;
  /** Listen port; 0 picks a free one. */
  readonly port: number;
  /** The MCP endpoint path; default `/mcp`. */
  readonly path?: string;
  readonly maxRequestBytes: number;
  /** Host header names accepted (default: localhost, 127.0.0.1, [::1]). */
  readonly allowedHosts?: readonly string[];
  /** Extra exact Origins accepted (an Origin whose host is an allowed host is always accepted). */
  readonly allowedOrigins?: readonly string[];
  /** Who may call. Default: the static `bearerTokens` when given, else nobody is asked (loopback use only). */
  readonly authenticator?: Authenticator;
  /** Accepted static bearer tokens, each its own principal (session); ignored when `authenticator` is given. */
  readonly bearerTokens?: readonly string[];
  /**
   * OAuth: the RFC 9728 document served (GET, no credential needed) at its well-known paths, and named by every
   * 401's `WWW-Authenticate` (`resource_metadata`).
   */
  readonly protectedResource?: ProtectedResourceMetadata;
  readonly timeouts?: HttpTimeouts;
  /** A server for one request, bound to the caller (the runs profile scopes runs to the principal). */
  readonly serverFor: (principal: Principal) => Server | Promise<Server>;
  /** Told the status of every response (metrics); never the request, its path or the caller. */
  readonly onResponse?: (status: number) => void;
  /** Told about unexpected faults; the client only sees a generic JSON error. */
  readonly onFault?: (error: unknown) => void;
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  readonly url: string;
  readonly server: HttpServer;
  close(): Promise<void>;
}

export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function webRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The Host header was checked by the guard; the URL only feeds the SDK's request info.
  return new Request(`http://${req.headers.host ?? 'localhost'}${url.pathname}${url.search}`, {
    method: 'POST',
    headers,
  });
}

async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['cache-control'] = CACHE_CONTROL;
  const body = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}

function urlOf(rawUrl: string | undefined): URL | undefined {
  try {
    return new URL(rawUrl ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/** The authenticator the options ask for (see {@link HttpTransportOptions.authenticator}). */
function authenticatorOf(opts: HttpTransportOptions): Authenticator {
  if (opts.authenticator !== undefined) return opts.authenticator;
  const tokens = opts.bearerTokens ?? [];
  return tokens.length === 0 ? NO_AUTHENTICATION : staticTokenAuthenticator(tokens);
}

/** The RFC 9728 document: GET (or HEAD) only, JSON, no credential needed. */
function sendProtectedResourceMetadata(
  req: IncomingMessage,
  res: ServerResponse,
  metadata: ProtectedResourceMetadata,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendJsonError(res, 405, RpcCode.InvalidRequest, 'method not allowed', { Allow: 'GET' });
  }
  req.resume();
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(metadata.body)),
    'Cache-Control': CACHE_CONTROL,
  });
  res.end(req.method === 'HEAD' ? undefined : metadata.body);
}

/**
 * One 2025-era exchange: a fresh server on a stateless transport that answers with one JSON body (the SDK's own
 * stateless fallback would answer with an SSE stream).
 */
async function legacyExchange(server: Server, request: Request, body: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }); // stateless
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/** The request listener: guards, body cap, one stateless MCP exchange. Exported for embedding in another server. */
export function mcpRequestListener(opts: HttpTransportOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const path = opts.path ?? '/mcp';
  const authenticator = authenticatorOf(opts);
  const metadata = opts.protectedResource;
  const challenge = metadata === undefined ? {} : { resourceMetadata: metadata.url };
  // The modern leg builds its server through this factory; the request object carries the authenticated caller.
  const callers = new WeakMap<Request, Principal>();
  const modern = createMcpHandler(
    (ctx: McpRequestContext) => {
      const principal = ctx.requestInfo === undefined ? undefined : callers.get(ctx.requestInfo);
      if (principal === undefined) throw new Error('MCP request without an authenticated caller');
      return opts.serverFor(principal);
    },
    {
      legacy: 'reject',
      maxRequestBodySize: opts.maxRequestBytes,
    },
  );
  const guard = new RequestGuard({
    allowedHosts: opts.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
    allowedOrigins: opts.allowedOrigins ?? [],
  });

  /** The 413, delivered: the socket lingers (stop reading, answer, close after the answer left). */
  function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
    lingerOnClose(req);
    const message = `request body exceeds ${opts.maxRequestBytes} bytes`;
    sendJsonError(res, 413, RpcCode.InvalidRequest, message, { Connection: 'close' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', CACHE_CONTROL);
    if (!guard.hostAllowed(req)) return sendJsonError(res, 403, RpcCode.InvalidRequest, 'host not allowed');
    if (!guard.originAllowed(req)) return sendJsonError(res, 403, RpcCode.InvalidRequest, 'origin not allowed');
    const url = urlOf(req.url);
    if (metadata !== undefined && url !== undefined && metadata.paths.includes(url.pathname)) {
      return sendProtectedResourceMetadata(req, res, metadata);
    }
    if (url?.pathname !== path) return sendJsonError(res, 404, RpcCode.InvalidRequest, 'not found');
    if (declaredTooLarge(req, opts.maxRequestBytes)) return refuseTooLarge(req, res);
    const auth = await authenticator.authenticate(req.headers.authorization);
    if (!auth.ok) return RequestGuard.refuse(res, auth, challenge);
    const principal = auth.principal;
    if (req.method !== 'POST') {
      return sendJsonError(res, 405, RpcCode.InvalidRequest, 'method not allowed', { Allow: 'POST' });
    }
    const body = await readBody(req, res, opts.maxRequestBytes);
    if (body.kind === 'gone') return;
    if (body.kind === 'too_large') return refuseTooLarge(req, res);
    const parsed = parseStrictJsonBytes(body.bytes, { maxBytes: opts.maxRequestBytes });
    if (!parsed.ok)
      return sendJsonError(res, 400, RpcCode.ParseError, 'parse error: the body is not one strict JSON value');
    const verdict = inspectMessages(parsed.value, { batches: true });
    if (!verdict.ok) return sendJsonError(res, 400, verdict.code, verdict.message, {}, verdict.id);

    const request = webRequest(req, url);
    callers.set(request, principal);
    const response = (await isLegacyRequest(request, parsed.value))
      ? await legacyExchange(await opts.serverFor(principal), request, parsed.value)
      : await modern.fetch(request, { parsedBody: parsed.value });
    await writeWebResponse(res, response);
  }

  const onResponse = opts.onResponse;
  return (req, res) => {
    if (onResponse !== undefined) res.once('finish', () => onResponse(res.statusCode));
    handle(req, res).catch((error: unknown) => {
      // A client that hung up mid-exchange is not a fault of ours; there is nobody to answer.
      if (isClientDisconnect(error) || res.socket?.destroyed === true) {
        res.destroy();
        return;
      }
      opts.onFault?.(error);
      sendJsonError(res, 500, RpcCode.InternalError, 'internal error');
    });
  };
}

const CLIENT_ERRORS: ReadonlyMap<string, readonly [number, string]> = new Map([
  ['HPE_HEADER_OVERFLOW', [431, 'Request Header Fields Too Large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Request Timeout']],
]);

/**
 * Answers what Node's parser refuses (malformed request, oversized headers, a timeout) with our JSON and private cache
 * header instead of Node's bare reply, then closes the connection. Nothing is logged.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && inFlight?.headersSent !== true) {
    const [status, reason] = CLIENT_ERRORS.get(error.code ?? '') ?? [400, 'Bad Request'];
    const body = jsonErrorBody(RpcCode.InvalidRequest, reason.toLowerCase());
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: ${CACHE_CONTROL}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

/**
 * Applies the client time limits and the JSON client-error answer to a `node:http` server. `startHttpTransport` does
 * this; call it yourself when embedding `mcpRequestListener` in your own server.
 */
export function hardenHttpServer(server: HttpServer, timeouts: HttpTimeouts = {}): void {
  const t = { ...HTTP_TIMEOUT_DEFAULTS, ...timeouts };
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.requestMs;
  server.keepAliveTimeout = t.keepAliveMs;
  server.on('clientError', answerClientError);
}

/** Starts listening; resolves once the port is bound. */
export async function startHttpTransport(opts: HttpTransportOptions): Promise<HttpEndpoint> {
  const t = { ...HTTP_TIMEOUT_DEFAULTS, ...opts.timeouts };
  const listener = mcpRequestListener(opts);
  const server = createServer(
    {
      // A missing Host is refused by our guard (with our headers), not by Node's bare 400.
      requireHostHeader: false,
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: t.checkIntervalMs,
    },
    listener,
  );
  // Expect: 100-continue is answered by readBody, after the checks, never for an over-cap body.
  server.on('checkContinue', continueOnDemand(listener));
  hardenHttpServer(server, t);
  const host = opts.host ?? '127.0.0.1';
  const bound = await listenHttp(server, opts.port, host);
  return { url: `${bound.origin}${opts.path ?? '/mcp'}`, server, close: () => bound.close() };
}
