/**
 * Opening an HTTP listener, shared by every listener Rimthan opens (MCP, Admin API, console): a `node:http` server
 * with bounded client times (headers, whole request, idle keep-alive), a missing Host left to the listener's own guard,
 * Node's bare answers to a malformed, oversized or timed-out request replaced by a small JSON one in the listener's
 * error shape, and the bind
 * (resolves once the port is bound; a bind error rejects, naming nothing but the error).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { continueOnDemand } from './body.js';
import { errorBody, jsonRpcErrorBody } from './respond.js';

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

/** The cache header of the client-error answers (they may carry nothing a cache should keep). */
const CLIENT_ERROR_CACHE_CONTROL = 'private, no-store';
/** JSON-RPC's "invalid request": the MCP endpoint's client-error answers keep the JSON-RPC error shape. */
const INVALID_REQUEST = -32600;

/**
 * The shape of the answers to what Node's parser refuses: `json-rpc` (the MCP endpoint's) or `error` (the
 * `{error: {code, message}}` of the Admin API and the console, with a code of the error vocabulary).
 */
export type ClientErrorShape = 'json-rpc' | 'error';

/** Node's parser error code → status, reason phrase and our error code. */
const CLIENT_ERRORS: ReadonlyMap<string, readonly [number, string, string]> = new Map([
  ['HPE_HEADER_OVERFLOW', [431, 'Request Header Fields Too Large', 'too_large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Request Timeout', 'request_timeout']],
]);
const BAD_REQUEST = [400, 'Bad Request', 'invalid_arguments'] as const;

/**
 * Answers what Node's parser refuses (malformed request, oversized headers, a timeout) with our JSON in the
 * listener's error shape and the private cache header instead of Node's bare reply, then closes the connection.
 * Nothing is logged.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, shape: ClientErrorShape): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && inFlight?.headersSent !== true) {
    const [status, reason, code] = CLIENT_ERRORS.get(error.code ?? '') ?? BAD_REQUEST;
    const message = reason.toLowerCase();
    const body = shape === 'error' ? errorBody(code, message) : jsonRpcErrorBody(INVALID_REQUEST, message);
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: ${CLIENT_ERROR_CACHE_CONTROL}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

/** Applies the client time limits and the JSON client-error answer (JSON-RPC-shaped by default) to a server. */
export function hardenHttpServer(
  server: HttpServer,
  timeouts: HttpTimeouts = {},
  shape: ClientErrorShape = 'json-rpc',
): void {
  const t = { ...HTTP_TIMEOUT_DEFAULTS, ...timeouts };
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.requestMs;
  server.keepAliveTimeout = t.keepAliveMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, shape));
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface HardenedServerOptions {
  readonly timeouts?: HttpTimeouts;
  /**
   * Answer `Expect: 100-continue` only when the body is about to be read (see body.ts `readBody`), never for a
   * request refused before; without it Node answers `100 Continue` at once.
   */
  readonly continueOnDemand?: boolean;
  /** The shape of the answers to malformed, oversized or timed-out requests (default `json-rpc`). */
  readonly clientErrorShape?: ClientErrorShape;
}

/** A hardened server for `listener`: the time limits (checked every `checkIntervalMs`) and the client-error answer. */
export function createHardenedServer(listener: RequestListener, opts: HardenedServerOptions = {}): HttpServer {
  const t = { ...HTTP_TIMEOUT_DEFAULTS, ...opts.timeouts };
  const server = createServer(
    {
      // A missing Host is refused by the listener's guard (with its headers), not by Node's bare 400.
      requireHostHeader: false,
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: t.checkIntervalMs,
    },
    listener,
  );
  if (opts.continueOnDemand === true) server.on('checkContinue', continueOnDemand(listener));
  hardenHttpServer(server, t, opts.clientErrorShape);
  return server;
}

export interface BoundListener {
  /** `http://host:port` of the bound address (IPv6 in brackets). */
  readonly origin: string;
  /** Stops accepting, drops idle and open connections, and resolves once the server is closed. */
  close(): Promise<void>;
}

/** Binds `server` to `host:port` (0 picks a free port). */
export async function listenHttp(server: HttpServer, port: number, host: string): Promise<BoundListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

export interface ListenOptions extends HardenedServerOptions {
  readonly host: string;
  readonly port: number;
}

/** A running listener: the server, its bound origin and the way to stop it. */
export interface Listening {
  readonly server: HttpServer;
  readonly origin: string;
  close(): Promise<void>;
}

/** Creates the hardened server for `listener` and binds it; resolves once the port is bound. */
export async function listen(listener: RequestListener, opts: ListenOptions): Promise<Listening> {
  const server = createHardenedServer(listener, opts);
  const bound = await listenHttp(server, opts.port, opts.host);
  return { server, origin: bound.origin, close: () => bound.close() };
}
