/**
 * Stateless Streamable HTTP on `node:http` (no framework): POST only on the MCP path, a fresh `Server` per request,
 * routed by revision: MCP 2026-07-28 traffic (the `_meta` envelope) goes to the v2 SDK's `createMcpHandler` (which
 * checks the `Mcp-Method`/`Mcp-Name` headers against the body: a mismatch is a 400 JSON-RPC error), 2025-era traffic to
 * a stateless JSON-answering transport (see {@link legacyExchange}). Around both: a request body cap enforced while the body streams in, Host/Origin checks, optional bearer auth, bounded
 * header/request/keep-alive times, and `Cache-Control: private, no-store` on every response (including the ones Node
 * itself would write for a malformed or timed-out request). `GET /healthz` and `GET /readyz` (src/http/health.ts)
 * answer after the Host and Origin checks without a credential. Nothing is logged per request.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { parseStrictJsonBytes } from '../../core/index.js';
import {
  ALWAYS_READY,
  answerHealth,
  declaredTooLarge,
  isClientDisconnect,
  lingerOnClose,
  listen,
  readBody,
  RequestGuard,
  sendJsonRpcError,
} from '../../http/index.js';
import type { HttpTimeouts, ReadinessProbe } from '../../http/index.js';
import { bearerChallenge, NO_AUTHENTICATION, staticTokenAuthenticator } from '../../identity/index.js';
import type { Authenticator, Principal, ProtectedResourceMetadata } from '../../identity/index.js';
import { inspectMessages } from './jsonrpc-checks.js';
import { RpcCode } from '../server/wire.js';

/** Every MCP endpoint answer is private to its caller and never stored. */
const CACHE_CONTROL = 'private, no-store';

export type { HttpTimeouts } from '../../http/index.js';

export interface HttpTransportOptions {
  /** Listen address; default 127.0.0.1. */
  readonly host?: string;
  /** Listen port; 0 picks a free one. */
  readonly port: number;
  /** The MCP endpoint path; default `/mcp`. */
  readonly path?: string;
  readonly maxRequestBytes: number;
  /**
   * The public names of the endpoint (`host` or `host:port`), besides its own: localhost, 127.0.0.1, [::1] and the listen
   * address, each with the port it listens on (src/http's guards.ts has the whole rule).
   */
  readonly allowedHosts?: readonly string[];
  /** Extra whole Origins accepted (`scheme://host[:port]`); an allowed host's `http(s)://host` is accepted already. */
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
  /** What `GET /readyz` says (no credential needed; `GET /healthz` beside it); default: ready once listening. */
  readonly readiness?: ReadinessProbe;
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  readonly url: string;
  readonly server: HttpServer;
  close(): Promise<void>;
}

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
    return sendJsonRpcError(res, 405, RpcCode.InvalidRequest, 'method not allowed', { Allow: 'GET' });
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

/** The request listener: guards, body cap, one stateless MCP exchange (served by {@link startHttpTransport}). */
export function mcpRequestListener(opts: HttpTransportOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const path = opts.path ?? '/mcp';
  const authenticator = authenticatorOf(opts);
  const metadata = opts.protectedResource;
  const readiness = opts.readiness ?? ALWAYS_READY;
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
    listenHost: opts.host ?? '127.0.0.1',
    allowedHosts: opts.allowedHosts ?? [],
    allowedOrigins: opts.allowedOrigins ?? [],
  });

  /** The 413, delivered: the socket lingers (stop reading, answer, close after the answer left). */
  function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
    lingerOnClose(req);
    const message = `request body exceeds ${opts.maxRequestBytes} bytes`;
    sendJsonRpcError(res, 413, RpcCode.InvalidRequest, message, { Connection: 'close' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', CACHE_CONTROL);
    if (!guard.hostAllowed(req)) return sendJsonRpcError(res, 403, RpcCode.InvalidRequest, 'host not allowed');
    if (!guard.originAllowed(req)) return sendJsonRpcError(res, 403, RpcCode.InvalidRequest, 'origin not allowed');
    const url = urlOf(req.url);
    if (url !== undefined && answerHealth(req, res, url.pathname, readiness)) return;
    if (metadata !== undefined && url !== undefined && metadata.paths.includes(url.pathname)) {
      return sendProtectedResourceMetadata(req, res, metadata);
    }
    if (url?.pathname !== path) return sendJsonRpcError(res, 404, RpcCode.InvalidRequest, 'not found');
    if (declaredTooLarge(req, opts.maxRequestBytes)) return refuseTooLarge(req, res);
    const auth = await authenticator.authenticate(req.headers.authorization);
    if (!auth.ok) {
      return sendJsonRpcError(res, auth.status, RpcCode.InvalidRequest, auth.message, {
        'WWW-Authenticate': bearerChallenge(auth, challenge),
      });
    }
    const principal = auth.principal;
    if (req.method !== 'POST') {
      return sendJsonRpcError(res, 405, RpcCode.InvalidRequest, 'method not allowed', { Allow: 'POST' });
    }
    const body = await readBody(req, opts.maxRequestBytes, res);
    if (body.kind === 'gone') return;
    if (body.kind === 'too_large') return refuseTooLarge(req, res);
    const parsed = parseStrictJsonBytes(body.bytes, { maxBytes: opts.maxRequestBytes });
    if (!parsed.ok) {
      return sendJsonRpcError(res, 400, RpcCode.ParseError, 'parse error: the body is not one strict JSON value');
    }
    const verdict = inspectMessages(parsed.value, { batches: true });
    if (!verdict.ok) return sendJsonRpcError(res, 400, verdict.code, verdict.message, {}, verdict.id);

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
      sendJsonRpcError(res, 500, RpcCode.InternalError, 'internal error');
    });
  };
}

/** Starts listening; resolves once the port is bound. */
export async function startHttpTransport(opts: HttpTransportOptions): Promise<HttpEndpoint> {
  const listening = await listen(mcpRequestListener(opts), {
    host: opts.host ?? '127.0.0.1',
    port: opts.port,
    ...(opts.timeouts === undefined ? {} : { timeouts: opts.timeouts }),
    // Expect: 100-continue is answered by readBody, after the checks, never for an over-cap body.
    continueOnDemand: true,
  });
  const { server, origin } = listening;
  return { url: `${origin}${opts.path ?? '/mcp'}`, server, close: () => listening.close() };
}
