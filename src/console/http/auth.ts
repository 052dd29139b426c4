/**
 * Who may use the console, in one of two modes.
 *
 * - `link` (loopback only): the printed URL carries a one-time token. `GET /auth?token=…` exchanges it, once, for an
 *   HttpOnly SameSite=Strict session cookie; the token is invalid from then on. The holder is the operator, who may
 *   look at any session of the run store (they can read its file already).
 * - `tokens`: the admin side's bearer tokens (one per line in the token file, or the environment). A person signs in
 *   on the login page (`POST /auth`) for a cookie, a script sends `Authorization: Bearer`. Each token is its own
 *   caller and sees only its own session: the same pseudonym the runs profile uses as the session id.
 *
 * Tokens, cookies and sessions are compared by SHA-256 digest in constant time; only digests are kept, in memory.
 *
 * Each cookie sign-in has a CSRF token (an HMAC of the cookie's secret under a key of this process, so nothing more is
 * kept). It is handed to the page once, in the answer to the sign-in itself, and the page keeps it in its origin's
 * storage: a cookie planted by another port of the same host (cookies ignore ports) comes without it, so it cannot
 * change anything (see same-origin.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sha256Hex } from '../../core/index.js';
import { staticTokenAuthenticator } from '../../identity/index.js';
import type { Authenticator } from '../../identity/index.js';

export type ConsolePrincipal = { readonly kind: 'operator' } | { readonly kind: 'caller'; readonly session: string };

export const COOKIE_NAME = 'rimthan_console';
const COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${COOKIE_NAME}=([A-Za-z0-9_-]{43})(?:;|$)`);
/** A session cookie lives this long without use, and never longer than the absolute limit. */
const IDLE_MS = 12 * 60 * 60 * 1000;
const ABSOLUTE_MS = 24 * 60 * 60 * 1000;
const MAX_SIGN_INS = 1024;

/** One sign-in to the console, held by its cookie (not a run session nor a guided workflow session). */
interface SignIn {
  readonly principal: ConsolePrincipal;
  readonly created: number;
  lastSeen: number;
}

const digest = (secret: string): Buffer => Buffer.from(sha256Hex(`rimthan-console\u0000${secret}`), 'hex');

/** The header the page sends its sign-in's CSRF token in (and the console's API answers carry it in). */
export const CSRF_HEADER = 'x-rimthan-csrf';

/** True when `sent` equals `expected`, compared in constant time (by digest, so lengths leak nothing). */
export function sameSecret(sent: string, expected: string): boolean {
  return timingSafeEqual(digest(sent), digest(expected));
}

/** A fresh sign-in: the Set-Cookie value and the sign-in's CSRF token for the page. */
export interface SignedIn {
  readonly cookie: string;
  readonly csrf: string;
}

export interface AuthOptions {
  readonly mode: 'link' | 'tokens';
  /** `tokens` mode: the accepted bearer tokens. */
  readonly tokens?: readonly string[];
  /** Set `Secure` on the cookie (a listener beyond loopback is reached through TLS). */
  readonly secureCookie: boolean;
  readonly now?: () => number;
}

export class ConsoleAuth {
  readonly mode: 'link' | 'tokens';
  #linkToken: Buffer | undefined;
  readonly #callers: Authenticator | undefined;
  readonly #signIns = new Map<string, SignIn>();
  readonly #secure: boolean;
  readonly #now: () => number;
  /** Keys the CSRF tokens of this process's sign-ins. */
  readonly #csrfKey = randomBytes(32);

  constructor(opts: AuthOptions) {
    this.mode = opts.mode;
    this.#secure = opts.secureCookie;
    this.#now = opts.now ?? Date.now;
    this.#callers = opts.mode === 'tokens' ? staticTokenAuthenticator(opts.tokens ?? []) : undefined;
  }

  /** `link` mode: a fresh one-time token for the printed URL (any earlier one stops working). */
  issueLinkToken(): string {
    const token = randomBytes(32).toString('base64url');
    this.#linkToken = digest(token);
    return token;
  }

  /** Exchanges the one-time token for a session cookie, once. */
  exchangeLinkToken(token: string): SignedIn | undefined {
    const expected = this.#linkToken;
    if (expected === undefined || !timingSafeEqual(digest(token), expected)) return undefined;
    this.#linkToken = undefined;
    return this.#signIn({ kind: 'operator' });
  }

  /** `tokens` mode: the caller a bearer token stands for (the runs profile's session pseudonym). */
  async callerOf(authorization: string): Promise<ConsolePrincipal | undefined> {
    const outcome = await this.#callers?.authenticate(authorization);
    if (outcome === undefined || !outcome.ok || !outcome.principal.authenticated) return undefined;
    return { kind: 'caller', session: outcome.principal.id };
  }

  /** Signs a caller in with a token from the login form, or undefined. */
  async login(token: string): Promise<SignedIn | undefined> {
    const caller = await this.callerOf(`Bearer ${token}`);
    return caller === undefined ? undefined : this.#signIn(caller);
  }

  /** The CSRF token of the request's sign-in cookie (whether or not the sign-in is still live), or undefined. */
  csrfOf(req: IncomingMessage): string | undefined {
    const match = COOKIE_PATTERN.exec(req.headers.cookie ?? '');
    return match?.[1] === undefined ? undefined : this.#csrf(match[1]);
  }

  #csrf(secret: string): string {
    return createHmac('sha256', this.#csrfKey).update(secret).digest('base64url');
  }

  /** The request's principal and how it authenticated, or undefined. */
  async principalOf(
    req: IncomingMessage,
  ): Promise<{ principal: ConsolePrincipal; via: 'cookie' | 'bearer' } | undefined> {
    const header = req.headers.authorization;
    if (header !== undefined && this.#callers !== undefined) {
      const caller = await this.callerOf(header);
      return caller === undefined ? undefined : { principal: caller, via: 'bearer' };
    }
    const match = COOKIE_PATTERN.exec(req.headers.cookie ?? '');
    if (match?.[1] === undefined) return undefined;
    const key = digest(match[1]).toString('hex');
    const signIn = this.#signIns.get(key);
    const now = this.#now();
    if (signIn === undefined) return undefined;
    if (now - signIn.lastSeen > IDLE_MS || now - signIn.created > ABSOLUTE_MS) {
      this.#signIns.delete(key);
      return undefined;
    }
    signIn.lastSeen = now;
    return { principal: signIn.principal, via: 'cookie' };
  }

  /** Ends the request's sign-in; the Set-Cookie value that clears it. */
  logout(req: IncomingMessage): string {
    const match = COOKIE_PATTERN.exec(req.headers.cookie ?? '');
    if (match?.[1] !== undefined) this.#signIns.delete(digest(match[1]).toString('hex'));
    return this.#cookie('', 0);
  }

  #signIn(principal: ConsolePrincipal): SignedIn {
    const now = this.#now();
    for (const [key, s] of this.#signIns) {
      if (now - s.lastSeen > IDLE_MS || now - s.created > ABSOLUTE_MS) this.#signIns.delete(key);
    }
    while (this.#signIns.size >= MAX_SIGN_INS) {
      const oldest = this.#signIns.keys().next().value;
      if (oldest === undefined) break;
      this.#signIns.delete(oldest);
    }
    const secret = randomBytes(32).toString('base64url');
    this.#signIns.set(digest(secret).toString('hex'), { principal, created: now, lastSeen: now });
    return { cookie: this.#cookie(secret), csrf: this.#csrf(secret) };
  }

  #cookie(value: string, maxAge?: number): string {
    return [
      `${COOKIE_NAME}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      ...(maxAge === undefined ? [] : [`Max-Age=${maxAge}`]),
      ...(this.#secure ? ['Secure'] : []),
    ].join('; ');
  }
}
