/**
 * The checks a request passes before any handler sees it: the Host allow-list (DNS rebinding) and the Origin (present
 * and not allowed → refused). The credential is checked by an identity `Authenticator` (bearer extraction, digests
 * compared in constant time, the `WWW-Authenticate` challenge of a refusal); src/http does not import identity/, so a
 * stdio serve that uses src/http's JSON-RPC error body never loads the JWT library.
 */
import type { IncomingMessage } from 'node:http';
import { RimthanError } from '../core/index.js';

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
}
