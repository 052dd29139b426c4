/**
 * The principal a request authenticated as. `id` is a one-way pseudonym (see principal-id.ts): logs, metrics and run
 * stores may hold it, never the credential it came from. `scopes` are what the credential grants (a static token's
 * configured scopes, an access token's `scope` claim).
 */
export interface Principal {
  readonly id: string;
  readonly authenticated: boolean;
  readonly scopes: readonly string[];
}

/** The caller of a transport that authenticates nobody (stdio, or loopback HTTP without tokens). */
export const ANONYMOUS: Principal = Object.freeze({ id: 'anonymous', authenticated: false, scopes: Object.freeze([]) });
