/**
 * Where the OAuth authorization server's public keys come from: a JWKS file or an HTTPS URL. The key set is loaded
 * once up front (`load()`, so a wrong setting fails at start), cached, reloaded when it grows old, and reloaded when a
 * token names a `kid` the cache lacks, at most once per cooldown, so a stream of tokens with invented key ids cannot
 * turn into a stream of fetches. A failed reload keeps the last good key set. Only public asymmetric keys are
 * accepted: a set holding a symmetric (`oct`) or private key is refused, never used.
 */
import { readFile } from 'node:fs/promises';
import { createLocalJWKSet } from 'jose';
import type { CryptoKey, FlattenedJWSInput, JSONWebKeySet, JWK, JWTHeaderParameters } from 'jose';
import { RimthanError } from '../core/index.js';

/** A JWKS file path, or an `https:` URL (`http:` only for a loopback host, for tests and local identity providers). */
export type JwksLocation =
  { readonly kind: 'file'; readonly path: string } | { readonly kind: 'url'; readonly url: URL };

export interface JwksCacheOptions {
  /** What the messages call the setting (e.g. `--oauth-jwks`). */
  readonly setting?: string;
  /** Reload a key set older than this on the next request; default 10 minutes. */
  readonly maxAgeMs?: number;
  /** At most one reload for an unknown `kid` per this many milliseconds; default 30 s. */
  readonly refetchCooldownMs?: number;
  /** A URL fetch gives up after this long; default 5 s. */
  readonly fetchTimeoutMs?: number;
  /** Now, in epoch milliseconds (tests). */
  readonly now?: () => number;
}

const MAX_JWKS_BYTES = 256 * 1024;
const MAX_KEYS = 64;
const ASYMMETRIC = new Set(['RSA', 'EC', 'OKP']);
/** Private-key members of RSA, EC and OKP JWKs (RFC 7518 §6.2.2, §6.3.2; RFC 8037). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Parses the `--oauth-jwks` value: an absolute URL (https, or http on loopback) or a file path. */
export function parseJwksLocation(value: string, setting = '--oauth-jwks'): JwksLocation {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new RimthanError('invalid_config', `${setting} is not a valid URL`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      throw new RimthanError('invalid_config', `${setting} must be an https:// URL (http:// only on a loopback host)`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new RimthanError('invalid_config', `${setting} must not carry credentials in the URL`);
    }
    return { kind: 'url', url };
  }
  return { kind: 'file', path: value };
}

/** The key set in `text`, checked: a JSON object with a non-empty `keys` array of public asymmetric keys. */
export function parseJwks(text: string, setting: string): JSONWebKeySet {
  const refuse = (why: string): never => {
    throw new RimthanError('invalid_config', `${setting} ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('is not a JSON key set (RFC 7517)');
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (typeof value !== 'object' || value === null || !Array.isArray(keys)) {
    return refuse('is not a JSON key set (RFC 7517): it needs a "keys" array');
  }
  if (keys.length === 0) refuse('holds no keys');
  if (keys.length > MAX_KEYS) refuse(`holds more than ${MAX_KEYS} keys`);
  for (const [i, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null) refuse(`keys[${i}] is not a JSON object`);
    const jwk = key as JWK;
    if (typeof jwk.kty !== 'string' || !ASYMMETRIC.has(jwk.kty)) {
      refuse(`keys[${i}] must be an RSA, EC or OKP public key (symmetric keys are refused)`);
    }
    if (PRIVATE_MEMBERS.some((m) => m in jwk)) refuse(`keys[${i}] is a private key; publish only public keys`);
    if (typeof jwk.alg === 'string' && (/^HS/i.test(jwk.alg) || jwk.alg === 'none')) {
      refuse(`keys[${i}] names the algorithm ${jwk.alg}; only asymmetric algorithms are accepted`);
    }
  }
  return { keys: keys as JWK[] };
}

/** A cached, self-refreshing key set; see the module comment. */
export class JwksCache {
  readonly #location: JwksLocation;
  readonly #setting: string;
  readonly #maxAgeMs: number;
  readonly #cooldownMs: number;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #resolver: KeyResolver | undefined;
  #loadedAt = 0;
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(location: JwksLocation, opts: JwksCacheOptions = {}) {
    this.#location = location;
    this.#setting = opts.setting ?? '--oauth-jwks';
    this.#maxAgeMs = opts.maxAgeMs ?? 600_000;
    this.#cooldownMs = opts.refetchCooldownMs ?? 30_000;
    this.#timeoutMs = opts.fetchTimeoutMs ?? 5_000;
    this.#now = opts.now ?? Date.now;
  }

  /** Loads (or reloads) the key set; throws `invalid_config` naming the setting when it cannot be read or is wrong. */
  async load(): Promise<void> {
    this.#loading ??= this.#fetch().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #fetch(): Promise<void> {
    this.#lastAttempt = this.#now();
    const text = await this.#readText();
    this.#resolver = createLocalJWKSet(parseJwks(text, this.#setting));
    this.#loadedAt = this.#now();
  }

  async #readText(): Promise<string> {
    const where = this.#setting;
    if (this.#location.kind === 'file') {
      let text: string;
      try {
        text = await readFile(this.#location.path, 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
        throw new RimthanError('invalid_config', `cannot read ${where} ${this.#location.path} (${code})`, {
          cause: error,
        });
      }
      if (Buffer.byteLength(text) > MAX_JWKS_BYTES) throw new RimthanError('invalid_config', `${where} is too large`);
      return text;
    }
    let response: Response;
    try {
      response = await fetch(this.#location.url, {
        headers: { accept: 'application/json, application/jwk-set+json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new RimthanError('invalid_config', `cannot fetch ${where} ${this.#location.url.origin} (unreachable)`, {
        cause: error,
      });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new RimthanError('invalid_config', `${where} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_JWKS_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw new RimthanError('invalid_config', `${where} is too large`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.byteLength > MAX_JWKS_BYTES) throw new RimthanError('invalid_config', `${where} is too large`);
    return bytes.toString('utf8');
  }

  /** Reloads unless the last attempt is younger than the cooldown; a failed reload keeps the cached set. */
  async #reloadIfAllowed(): Promise<boolean> {
    if (this.#loading === undefined && this.#now() - this.#lastAttempt < this.#cooldownMs) return false;
    try {
      await this.load();
      return true;
    } catch {
      return false;
    }
  }

  /** The key for a token's protected header (jose's key resolver contract); throws when none matches. */
  async keyFor(header: JWTHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> {
    if (this.#resolver === undefined || this.#now() - this.#loadedAt > this.#maxAgeMs) await this.#reloadIfAllowed();
    const resolver = this.#resolver;
    if (resolver === undefined) throw new RimthanError('unauthenticated', 'no key set is available');
    try {
      return await resolver(header, token);
    } catch (error) {
      // An unknown kid may be a key the authorization server just rotated in: reload once (rate limited), then retry.
      if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      if (!(await this.#reloadIfAllowed()) || this.#resolver === undefined) throw error;
      return this.#resolver(header, token);
    }
  }
}
