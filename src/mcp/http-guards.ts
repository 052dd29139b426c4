/**
 * The checks a Streamable HTTP request passes before any MCP code sees it: Host allow-list (DNS rebinding), Origin
 * (present and not allowed → 403), authentication refusals (401/403 + WWW-Authenticate; the credential itself is
 * checked by an identity `Authenticator`), and the JSON error answers.
 * Every answer is JSON (never HTML, never a stack) and carries `Cache-Control: private, no-store`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonObject, RimthanError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { bearerChallenge } from '../identity/index.js';
import type { AuthRefusal, ChallengeOptions } from '../identity/index.js';
import { RpcCode } from './wire.js';

export const CACHE_CONTROL = 'private, no-store';

/** The JSON-RPC-shaped error body every refusal carries (`id` is the request's when it is known, else null). */
export function jsonErrorBody(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** Writes a JSON-RPC-shaped error body with the given HTTP status. */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  id: string | number | null = null,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = jsonErrorBody(code, message, id);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': CACHE_CONTROL,
  });
  res.end(body);
}

/** `host[:port]` with a DNS name, an IPv4 address or a bracketed IPv6 literal; the port, when present, is 0-65535. */
const HOST_HEADER = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9_])?)(?::(\d{1,5}))?$/;

/**
 * The hostname of a Host header (or of an allowed-host setting), lowercased and without the port (`[::1]:80` →
 * `[::1]`); `undefined` when the value is not exactly `host[:port]` (user info, a second port, junk after `]`).
 */
export function hostnameOf(hostHeader: string): string | undefined {
  const match = HOST_HEADER.exec(hostHeader.trim().toLowerCase());
  if (match === null) return undefined;
  const port = match[2];
  if (port !== undefined && Number(port) > 65535) return undefined;
  return match[1];
}

export interface RequestGuardOptions {
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
}

/**
 * Allowed Host names and Origins. An Origin is allowed when listed exactly or when its host is an allowed host. The
 * constructor throws `invalid_config` for an allowed host that is not `host[:port]`.
 */
export class RequestGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  constructor(opts: RequestGuardOptions) {
    const hosts = new Set<string>();
    for (const h of opts.allowedHosts) {
      const name = hostnameOf(h);
      // Fail loudly: a silently dropped entry would lock out the clients it was meant for.
      if (name === undefined)
        throw new RimthanError('invalid_config', 'an allowed host must be a host name or address');
      hosts.add(name);
    }
    this.hosts = hosts;
    this.origins = new Set(opts.allowedOrigins.map((o) => o.toLowerCase()));
  }

  /** True when the Host header names an allowed host (any port). */
  hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostnameOf(host);
    return name !== undefined && this.hosts.has(name);
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
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.username !== '' || url.password !== '') return false;
    const name = hostnameOf(url.host);
    return name !== undefined && this.hosts.has(name);
  }

  /** The 401/403 answer for an authentication refusal, with the challenge the MCP authorization spec asks for. */
  static refuse(res: ServerResponse, refusal: AuthRefusal, challenge: ChallengeOptions = {}): void {
    sendJsonError(res, refusal.status, RpcCode.InvalidRequest, refusal.message, {
      'WWW-Authenticate': bearerChallenge(refusal, challenge),
    });
  }
}

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
