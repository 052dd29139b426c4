/**
 * Stateless Streamable HTTP on `node:http` (no framework): POST only on the MCP path, a fresh `Server` and transport per
 * request, a request body cap answered with a JSON 413, Host/Origin checks, optional bearer auth, and
 * `Cache-Control: private, no-store` on every response. Nothing is logged per request.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { parseStrictJsonBytes } from '../core/index.js';
import { CACHE_CONTROL, RequestGuard, sendJsonError } from './http-guards.js';
import type { Principal } from './http-guards.js';
import { RpcCode } from './wire.js';

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
  /** When set, every request needs `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
  /** A server for one request, bound to the caller (the runs profile scopes runs to the principal). */
  readonly serverFor: (principal: Principal) => Server | Promise<Server>;
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

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    total += buffer.byteLength;
    if (total > maxBytes) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: 'POST', headers });
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

/** The request listener: guards, body cap, one stateless MCP exchange. Exported for embedding in another server. */
export function mcpRequestListener(opts: HttpTransportOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const path = opts.path ?? '/mcp';
  const guard = new RequestGuard({
    allowedHosts: opts.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
    allowedOrigins: opts.allowedOrigins ?? [],
    ...(opts.bearerToken === undefined ? {} : { bearerToken: opts.bearerToken }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', CACHE_CONTROL);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return sendJsonError(res, 404, RpcCode.InvalidRequest, 'not found');
    if (!guard.hostAllowed(req)) return sendJsonError(res, 403, RpcCode.InvalidRequest, 'host not allowed');
    if (!guard.originAllowed(req)) return sendJsonError(res, 403, RpcCode.InvalidRequest, 'origin not allowed');
    const principal = guard.authenticate(req);
    if (principal === undefined) return RequestGuard.unauthorized(res, req.headers.authorization !== undefined);
    if (req.method !== 'POST') {
      return sendJsonError(res, 405, RpcCode.InvalidRequest, 'method not allowed', { Allow: 'POST' });
    }
    let bytes: Buffer;
    try {
      bytes = await readBody(req, opts.maxRequestBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      res.on('finish', () => req.destroy());
      const message = `request body exceeds ${opts.maxRequestBytes} bytes`;
      return sendJsonError(res, 413, RpcCode.InvalidRequest, message, { Connection: 'close' });
    }
    const parsed = parseStrictJsonBytes(bytes, { maxBytes: opts.maxRequestBytes });
    if (!parsed.ok)
      return sendJsonError(res, 400, RpcCode.ParseError, 'parse error: the body is not one strict JSON value');

    const server = await opts.serverFor(principal);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }); // no session id generator: stateless;
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(req), { parsedBody: parsed.value });
      await writeWebResponse(res, response);
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      opts.onFault?.(error);
      sendJsonError(res, 500, RpcCode.InternalError, 'internal error');
    });
  };
}

/** Starts listening; resolves once the port is bound. */
export async function startHttpTransport(opts: HttpTransportOptions): Promise<HttpEndpoint> {
  const server = createServer(mcpRequestListener(opts));
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${opts.path ?? '/mcp'}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
