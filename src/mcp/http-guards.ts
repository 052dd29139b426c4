/**
 * The checks a Streamable HTTP request passes before any MCP code sees it: Host allow-list (DNS rebinding), Origin
 * (present and not allowed → 403), bearer token (constant-time; 401 + WWW-Authenticate), and the JSON error answers.
 * Every answer is JSON (never HTML, never a stack) and carries `Cache-Control: private, no-store`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sha256Hex } from '../core/index.js';
import { RpcCode } from './wire.js';

export const CACHE_CONTROL = 'private, no-store';

/** Who is calling: `anonymous` without auth, else a stable pseudonym derived from the bearer token. */
export interface Principal {
  readonly id: string;
  readonly authenticated: boolean;
}

export const ANONYMOUS: Principal = Object.freeze({ id: 'anonymous', authenticated: false });

/** Writes a JSON-RPC-shaped error body with the given HTTP status. */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': CACHE_CONTROL,
  });
  res.end(body);
}

/** The hostname of a Host header, lowercased and without the port (`[::1]:80` → `[::1]`). */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/** Allowed Host names and Origins. An Origin is allowed when listed exactly or when its host is an allowed host. */
export class RequestGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;
  private readonly tokenDigest: Buffer | undefined;
  private readonly principal: Principal | undefined;

  constructor(opts: { allowedHosts: readonly string[]; allowedOrigins: readonly string[]; bearerToken?: string }) {
    this.hosts = new Set(opts.allowedHosts.map((h) => hostnameOf(h)));
    this.origins = new Set(opts.allowedOrigins.map((o) => o.toLowerCase()));
    if (opts.bearerToken !== undefined) {
      this.tokenDigest = Buffer.from(sha256Hex(opts.bearerToken), 'hex');
      this.principal = {
        id: `bearer-${sha256Hex(`rimthan-principal\u0000${opts.bearerToken}`).slice(0, 32)}`,
        authenticated: true,
      };
    }
  }

  /** True when the Host header names an allowed host. */
  hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    return host !== undefined && this.hosts.has(hostnameOf(host));
  }

  /** True when no Origin is sent, or the Origin is allowed. */
  originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const lower = origin.toLowerCase();
    if (this.origins.has(lower)) return true;
    let url: URL;
    try {
      url = new URL(lower);
    } catch {
      return false;
    }
    return (url.protocol === 'http:' || url.protocol === 'https:') && this.hosts.has(hostnameOf(url.host));
  }

  /** The caller, or `undefined` when a token is required and missing or wrong (compared in constant time). */
  authenticate(req: IncomingMessage): Principal | undefined {
    if (this.tokenDigest === undefined || this.principal === undefined) return ANONYMOUS;
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer ([\x21-\x7e]{1,4096})$/i.exec(header.trim());
    if (match === null || match[1] === undefined) return undefined;
    const given = Buffer.from(sha256Hex(match[1]), 'hex');
    return timingSafeEqual(given, this.tokenDigest) ? this.principal : undefined;
  }

  /** 401 with the challenge the MCP authorization spec asks for. */
  static unauthorized(res: ServerResponse, presented: boolean): void {
    const challenge = presented ? 'Bearer realm="rimthan", error="invalid_token"' : 'Bearer realm="rimthan"';
    sendJsonError(res, 401, RpcCode.InvalidRequest, 'authentication required', { 'WWW-Authenticate': challenge });
  }
}
