/**
 * Who a caller is, as the transports name it: the one mapping from a credential to a principal id. Over HTTP the
 * principal id is also the runs profile's session id, so an operator can compute it (`rimthan runs session-id`) and
 * the server agree without either storing a credential.
 */
import { sha256Hex } from '../core/index.js';

/**
 * A credential a caller authenticated with: a static bearer token, or an OAuth access token's issuer and subject (the
 * same person keeps one principal across the tokens the authorization server issues them).
 */
export type PrincipalCredential =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'oauth'; readonly issuer: string; readonly subject: string };

/**
 * The principal id of a credential. An OAuth principal maps to `oauth-` + 32 hex digits of the same kind of hash
 * over its issuer and subject. A bearer token maps to `bearer-` + the first 32 hex digits (128 bits) of
 * SHA-256("rimthan-principal\0" + token): a domain-separated one-way pseudonym, so logs and run stores never hold the
 * token. It is not keyed: whoever holds a copy of the store can test guessed tokens offline, so tokens must be long
 * and random.
 */
export function principalIdOf(credential: PrincipalCredential): string {
  if (credential.kind === 'bearer') {
    return `bearer-${sha256Hex(`rimthan-principal\u0000${credential.token}`).slice(0, 32)}`;
  }
  // `oauth-` + 128 bits of SHA-256 over the issuer and subject, NUL-separated (neither may hold a NUL: the JWT
  // verifier refuses such claims), domain-separated from bearer pseudonyms. Issuer + subject is what OAuth promises to
  // be stable and unique for one user; neither is shown anywhere the id goes.
  const { issuer, subject } = credential;
  return `oauth-${sha256Hex(`rimthan-principal\u0000oauth\u0000${issuer}\u0000${subject}`).slice(0, 32)}`;
}
