/**
 * Who a caller is, as the transports name it: the one mapping from a credential to a principal id. Over HTTP the
 * principal id is also the runs profile's session id, so an operator can compute it (`rimthan runs session-id`) and
 * the server agree without either storing a credential.
 */
import { sha256Hex } from '../core/index.js';

/**
 * A credential a caller authenticated with. Bearer tokens today; another kind of principal (an OAuth issuer and
 * subject) joins this union with its own branch in `principalIdOf`.
 */
export type PrincipalCredential = { readonly kind: 'bearer'; readonly token: string };

/**
 * The principal id of a credential. A bearer token maps to `bearer-` + the first 32 hex digits (128 bits) of
 * SHA-256("rimthan-principal\0" + token): a domain-separated one-way pseudonym, so logs and run stores never hold the
 * token. It is not keyed: whoever holds a copy of the store can test guessed tokens offline, so tokens must be long
 * and random.
 */
export function principalIdOf(credential: PrincipalCredential): string {
  return `bearer-${sha256Hex(`rimthan-principal\u0000${credential.token}`).slice(0, 32)}`;
}
