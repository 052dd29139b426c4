/**
 * OAuth 2.1 resource-server mode: `Authorization: Bearer <JWT access token>` verified with `jose` against the
 * authorization server's key set (see jwks.ts). Checked, in jose's order: a compact JWS with an asymmetric algorithm
 * from a fixed list (never `none`, never HS*: a public key can never serve as an HMAC secret), a signature by a key of
 * the set, `iss` equal to the configured issuer, `aud` containing the configured audience, `exp` present and not
 * passed and `nbf` reached (both with a small clock tolerance), `sub` present. The principal is issuer + subject,
 * named by its pseudonym (principalIdOf); its scopes come from the `scope` claim (space-separated, RFC 8693 / RFC
 * 9068), or a `scp` array as some providers send. Every failure is the same 401 `invalid_token`: which check failed
 * is not told.
 */
import { jwtVerify } from 'jose';
import type { JWSAlgorithm, JWTPayload } from 'jose';
import type { Authenticator, AuthOutcome } from './authenticator.js';
import { bearerTokenOf, missingOrInvalid } from './authenticator.js';
import { JwksCache } from './jwks.js';
import type { JwksCacheOptions, JwksLocation } from './jwks.js';
import { principalIdOf } from './principal-id.js';

/** The only algorithms a token may name: RSA, RSA-PSS, ECDSA and EdDSA signatures. */
export const ASYMMETRIC_JWS_ALGORITHMS: readonly JWSAlgorithm[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
const MAX_SCOPES = 64;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 §3.3 scope-token
const MAX_CLAIM_LENGTH = 1024;

export interface JwtAuthenticatorOptions {
  /** The authorization server's issuer identifier; `iss` must equal it exactly. */
  readonly issuer: string;
  /** This resource's audience; `aud` must be it or contain it. */
  readonly audience: string;
  /** The key set's location, or a cache built already (shared by several authenticators). */
  readonly jwks: JwksLocation | JwksCache;
  readonly jwksOptions?: JwksCacheOptions;
  /** Allowed skew for `exp`/`nbf`, in seconds; default 30. */
  readonly clockToleranceSeconds?: number;
  /** A narrower algorithm list (each must be in {@link ASYMMETRIC_JWS_ALGORITHMS}). */
  readonly algorithms?: readonly JWSAlgorithm[];
  /** The current time (tests). */
  readonly currentDate?: () => Date;
}

/** An authenticator for JWT access tokens; call `keys.load()` once at start so a wrong key set fails then. */
export interface JwtAuthenticator extends Authenticator {
  readonly keys: JwksCache;
  readonly issuer: string;
  readonly audience: string;
}

function claimText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CLAIM_LENGTH && !value.includes('\u0000')
    ? value
    : undefined;
}

/** The scopes a verified payload grants: `scope` (space-separated) or `scp` (an array); malformed entries dropped. */
export function scopesOf(payload: JWTPayload): string[] {
  const scope = payload['scope'];
  const scp = payload['scp'];
  const raw =
    typeof scope === 'string'
      ? scope.split(' ')
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === 'string')
        : [];
  return [...new Set(raw.filter((s) => SCOPE_TOKEN.test(s)))].slice(0, MAX_SCOPES);
}

/**
 * Three base64url segments, each in its one canonical spelling: a segment whose unused trailing bits are set decodes
 * to the same bytes as another spelling, so without this check a changed token could still verify.
 */
function isCanonicalCompactJws(token: string): boolean {
  const segments = token.split('.');
  return (
    segments.length === 3 &&
    segments.every((s) => /^[\w-]+$/.test(s) && Buffer.from(s, 'base64url').toString('base64url') === s)
  );
}

/** Verifies JWT access tokens; see the module comment. */
export function jwtAuthenticator(opts: JwtAuthenticatorOptions): JwtAuthenticator {
  const algorithms = [...(opts.algorithms ?? ASYMMETRIC_JWS_ALGORITHMS)];
  for (const alg of algorithms) {
    if (!ASYMMETRIC_JWS_ALGORITHMS.includes(alg)) throw new TypeError(`${alg} is not an accepted JWS algorithm`);
  }
  const keys = opts.jwks instanceof JwksCache ? opts.jwks : new JwksCache(opts.jwks, opts.jwksOptions);
  const verifyOptions = {
    issuer: opts.issuer,
    audience: opts.audience,
    algorithms,
    clockTolerance: opts.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['exp', 'sub', 'iss', 'aud'],
  };
  return {
    required: true,
    keys,
    issuer: opts.issuer,
    audience: opts.audience,
    async authenticate(authorization): Promise<AuthOutcome> {
      const token = bearerTokenOf(authorization);
      if (token === undefined || !isCanonicalCompactJws(token)) return missingOrInvalid(authorization);
      try {
        const { payload } = await jwtVerify(token, (header, input) => keys.keyFor(header, input), {
          ...verifyOptions,
          ...(opts.currentDate === undefined ? {} : { currentDate: opts.currentDate() }),
        });
        const subject = claimText(payload.sub);
        if (subject === undefined) return missingOrInvalid(authorization);
        const id = principalIdOf({ kind: 'oauth', issuer: opts.issuer, subject });
        return { ok: true, principal: Object.freeze({ id, authenticated: true, scopes: scopesOf(payload) }) };
      } catch {
        // A jose refusal (signature, claims, algorithm, no matching key) or any other failure: never let it in.
        return missingOrInvalid(authorization);
      }
    },
  };
}
