/**
 * Static bearer tokens (`--token-file`, `RIMTHAN_MCP_BEARER_TOKEN`, and the admin side's own): each token is its own
 * principal. Only SHA-256 digests are kept; every configured token is compared with `timingSafeEqual` and no early
 * exit, so neither a token's length or content nor which one matched shows in the timing.
 */
import { timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../core/index.js';
import type { Authenticator, AuthOutcome } from './authenticator.js';
import { bearerTokenOf, missingOrInvalid } from './authenticator.js';
import type { Principal } from './principal.js';
import { principalIdOf } from './principal-id.js';

export interface StaticTokenOptions {
  /** Scopes every one of these tokens grants (the admin tokens grant `rimthan:admin`). */
  readonly scopes?: readonly string[];
}

const digestOf = (token: string): Buffer => Buffer.from(sha256Hex(token), 'hex');

/** An authenticator over a fixed token list; with no tokens it refuses everything (fail closed). */
export function staticTokenAuthenticator(tokens: readonly string[], opts: StaticTokenOptions = {}): Authenticator {
  const scopes = Object.freeze([...(opts.scopes ?? [])]);
  const known = tokens.map((token) => ({
    digest: digestOf(token),
    principal: Object.freeze({ id: principalIdOf({ kind: 'bearer', token }), authenticated: true, scopes }),
  }));
  return {
    required: true,
    authenticate(authorization): Promise<AuthOutcome> {
      const token = bearerTokenOf(authorization);
      const given = digestOf(token ?? '');
      let found: Principal | undefined;
      for (const candidate of known) {
        if (timingSafeEqual(given, candidate.digest) && token !== undefined) found = candidate.principal;
      }
      return Promise.resolve(found === undefined ? missingOrInvalid(authorization) : { ok: true, principal: found });
    },
  };
}
