/**
 * The one seam every listener authenticates through: the MCP endpoint, the Admin API and the console each take an
 * `Authenticator` and turn its refusal into their own 401/403 answer with `bearerChallenge`. Verifying a credential
 * never throws: a malformed header, an unknown token or a broken credential is a refusal with a reason a client may
 * see (no token, no principal, no stack).
 */
import type { Principal } from './principal.js';
import { ANONYMOUS } from './principal.js';

/** Why a request was refused: 401 (no or bad credential) or 403 (a good credential without the needed scope). */
export interface AuthRefusal {
  readonly ok: false;
  readonly status: 401 | 403;
  /** RFC 6750 error code; absent when no credential was presented at all. */
  readonly error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  /** A short, credential-free explanation for the client. */
  readonly message: string;
  /** The scope that was missing (403). */
  readonly scope?: string;
}

export type AuthOutcome = { readonly ok: true; readonly principal: Principal } | AuthRefusal;

export interface Authenticator {
  /** False when every request is let in as {@link ANONYMOUS} (no credentials configured). */
  readonly required: boolean;
  /** Verifies the `Authorization` header's value (undefined when absent). */
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
}

const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/i;

/** The token of an `Authorization: Bearer …` value, or undefined for anything else (another scheme, junk, too long). */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  return BEARER.exec(authorization.trim())?.[1];
}

/** The refusal for a missing or unusable credential: no `error` when nothing was presented (RFC 6750 §3.1). */
export function missingOrInvalid(authorization: string | undefined, message = 'authentication required'): AuthRefusal {
  return authorization === undefined
    ? { ok: false, status: 401, message }
    : { ok: false, status: 401, error: 'invalid_token', message };
}

/** Lets everyone in as {@link ANONYMOUS}: only for a loopback listener with no credentials configured. */
export const NO_AUTHENTICATION: Authenticator = Object.freeze({
  required: false,
  authenticate: (): Promise<AuthOutcome> => Promise.resolve({ ok: true, principal: ANONYMOUS }),
});

/**
 * Accepts a request the first authenticator accepts, trying each in turn; when all refuse, the most specific refusal
 * wins (403 over 401 with an error over 401 without), so a valid token without the scope hears "insufficient scope".
 */
export function anyOf(...authenticators: readonly Authenticator[]): Authenticator {
  const rank = (r: AuthRefusal): number => (r.status === 403 ? 2 : r.error === undefined ? 0 : 1);
  return {
    required: authenticators.some((a) => a.required),
    async authenticate(authorization) {
      let best: AuthRefusal | undefined;
      for (const authenticator of authenticators) {
        const outcome = await authenticator.authenticate(authorization);
        if (outcome.ok) return outcome;
        if (best === undefined || rank(outcome) > rank(best)) best = outcome;
      }
      return best ?? missingOrInvalid(authorization);
    },
  };
}

/** Accepts only principals granted `scope`; a principal without it is 403 `insufficient_scope`. */
export function requireScope(authenticator: Authenticator, scope: string): Authenticator {
  return {
    required: true,
    async authenticate(authorization) {
      const outcome = await authenticator.authenticate(authorization);
      if (!outcome.ok) return outcome;
      // Nobody authenticated (a listener without credentials lets everyone in anonymously): that is a missing
      // credential, not a missing scope.
      if (!outcome.principal.authenticated) return missingOrInvalid(authorization);
      if (outcome.principal.scopes.includes(scope)) return outcome;
      return {
        ok: false,
        status: 403,
        error: 'insufficient_scope',
        message: `the credential lacks the scope ${scope}`,
        scope,
      };
    },
  };
}

export interface ChallengeOptions {
  readonly realm?: string;
  /** RFC 9728: the URL of the protected-resource metadata document. */
  readonly resourceMetadata?: string;
}

/** The `WWW-Authenticate` value for a refusal (RFC 6750 §3, RFC 9728 §5.1). */
export function bearerChallenge(refusal: AuthRefusal, opts: ChallengeOptions = {}): string {
  const params = [`realm="${opts.realm ?? 'rimthan'}"`];
  if (opts.resourceMetadata !== undefined) params.push(`resource_metadata="${opts.resourceMetadata}"`);
  if (refusal.error !== undefined) params.push(`error="${refusal.error}"`);
  if (refusal.scope !== undefined) params.push(`scope="${refusal.scope}"`);
  return `Bearer ${params.join(', ')}`;
}
