/**
 * The one Host/Origin rule every listener (the MCP endpoint, the Admin API, the console) applies before any handler
 * sees a request: DNS rebinding and cross-origin pages are refused, comparing whole origins (scheme, host and port).
 *
 * - A listener's own names are `localhost`, `127.0.0.1`, `[::1]`, its listen address (unless a wildcard) and the name
 *   of each allowed host (`--allowed-host`). A Host header is accepted when it is an own name with the port the
 *   connection arrived on (no port: 80), or exactly an allowed host as configured (a proxy's public `name[:port]`).
 * - A present Origin is accepted when it is `http://<own name>:<arrival port>`, `http://H` or `https://H` for an allowed
 *   host `H` as configured (a loopback name counts only with an explicit port: a port forward), or exactly an allowed
 *   origin (`--allowed-origin`). Nothing else: another port of the same host is another origin.
 *
 * A request without an Origin passes this guard (curl, SDK clients); what it may do is the listener's affair (bearer
 * auth, the console's same-origin proof). The credential is checked by an identity `Authenticator`; src/http does not
 * import identity/, so a stdio serve that uses src/http's JSON-RPC error body never loads the JWT library.
 */
import type { IncomingMessage } from 'node:http';
import { RimthanError } from '../core/index.js';

/** `host[:port]` with a DNS name, an IPv4 address or a bracketed IPv6 literal; the port, when present, is 0-65535. */
const HOST_HEADER = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9_](?:[a-z0-9_.-]{0,251}[a-z0-9_])?)(?::(\d{1,5}))?$/;

/** The names by which this machine reaches a listener on loopback. */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/** True for a name only this machine reaches: `localhost`, `[::1]`, `127.x.x.x`. */
const isLoopbackName = (name: string): boolean => LOOPBACK_NAMES.includes(name) || /^127(?:\.\d{1,3}){3}$/.test(name);
/** Listen addresses that are no name of the listener (every interface). */
const WILDCARDS: ReadonlySet<string> = new Set(['0.0.0.0', '[::]']);

/** A parsed `host[:port]`: the lowercased name and the port when one is written. */
export interface Authority {
  readonly name: string;
  readonly port: number | undefined;
}

/**
 * A Host header (or an allowed-host setting) as name and port; `undefined` when the value is not exactly
 * `host[:port]` (user info, a second port, a port over 65535, junk after `]`).
 */
export function authorityOf(value: string): Authority | undefined {
  const match = HOST_HEADER.exec(value.trim().toLowerCase());
  if (match?.[1] === undefined) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { name: match[1], port };
}

/** The hostname of a Host header (or of an allowed-host setting), lowercased and without the port. */
export function hostnameOf(hostHeader: string): string | undefined {
  return authorityOf(hostHeader)?.name;
}

/** `name` or `name:port`, the form two authorities are compared in. */
const authorityKey = (a: Authority): string => (a.port === undefined ? a.name : `${a.name}:${a.port}`);

/**
 * An Origin (or an allowed-origin setting) as `scheme://host[:port]` with the default port dropped, or `undefined`
 * when it is not an http(s) origin and nothing more (`null`, a path, user info, another scheme).
 */
export function originOf(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '/') return undefined;
  return url.origin;
}

export interface RequestGuardOptions {
  /** The address the listener binds: one of its own names unless a wildcard (`0.0.0.0`, `::`). */
  readonly listenHost?: string;
  /** The operator's names for the listener (`--allowed-host`): `host` or `host:port`. */
  readonly allowedHosts: readonly string[];
  /** Whole origins the operator allows besides (`--allowed-origin`): `scheme://host[:port]`. */
  readonly allowedOrigins: readonly string[];
}

/**
 * One listener's Host/Origin rule (see the file comment). The constructor throws `invalid_config` for an allowed host
 * that is not `host[:port]` or an allowed origin that is not `scheme://host[:port]`: a silently dropped entry would lock
 * out the clients it was meant for.
 */
export class RequestGuard {
  /** Own names: accepted with the port the connection arrived on. */
  readonly #names = new Set<string>(LOOPBACK_NAMES);
  /** Allowed hosts as configured: accepted exactly (Host `name[:port]`). */
  readonly #authorities = new Set<string>();
  /** Whole origins accepted whatever the arrival port. */
  readonly #origins = new Set<string>();

  constructor(opts: RequestGuardOptions) {
    if (opts.listenHost !== undefined) {
      const raw = opts.listenHost.toLowerCase();
      const listen = raw.includes(':') && !raw.startsWith('[') ? `[${raw}]` : raw;
      if (!WILDCARDS.has(listen) && hostnameOf(listen) !== undefined) this.#names.add(listen);
    }
    for (const h of opts.allowedHosts) {
      const authority = authorityOf(h);
      if (authority === undefined)
        throw new RimthanError('invalid_config', 'an allowed host must be a host name or address');
      this.#names.add(authority.name);
      // A bare loopback name is only an own name: `http://localhost` (port 80) is another program's origin.
      if (authority.port === undefined && isLoopbackName(authority.name)) continue;
      this.#authorities.add(authorityKey(authority));
      for (const scheme of ['http', 'https']) {
        const origin = originOf(`${scheme}://${authorityKey(authority)}`);
        if (origin !== undefined) this.#origins.add(origin);
      }
    }
    for (const o of opts.allowedOrigins) {
      const origin = originOf(o);
      if (origin === undefined)
        throw new RimthanError('invalid_config', 'an allowed origin must be http(s)://host[:port]');
      this.#origins.add(origin);
    }
  }

  /** True when the Host header is an own name at the arrival port, or exactly an allowed host. */
  hostAllowed(req: IncomingMessage): boolean {
    const header = req.headers.host;
    const host = header === undefined ? undefined : authorityOf(header);
    if (host === undefined) return false;
    if (this.#names.has(host.name) && (host.port ?? 80) === arrivalPort(req)) return true;
    return this.#authorities.has(authorityKey(host));
  }

  /** True when no Origin is sent, or the Origin is one of the listener's own or allowed origins (whole origin). */
  originAllowed(req: IncomingMessage): boolean {
    const header = req.headers.origin;
    if (header === undefined) return true;
    const origin = originOf(header);
    if (origin === undefined) return false;
    if (this.#origins.has(origin)) return true;
    const port = arrivalPort(req);
    if (port === undefined || !origin.startsWith('http://')) return false;
    const authority = authorityOf(origin.slice('http://'.length));
    return authority !== undefined && this.#names.has(authority.name) && (authority.port ?? 80) === port;
  }
}

/** The local port the request's connection arrived on (undefined without a socket). */
function arrivalPort(req: IncomingMessage): number | undefined {
  return req.socket?.localPort;
}
