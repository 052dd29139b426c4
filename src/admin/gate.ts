/**
 * Who may use the Admin API: a static admin token (granted `rimthan:admin`) or any participant credential that carries
 * the `rimthan:admin` scope (an OAuth access token); every other credential that authenticates is 403.
 */
import { anyOf, requireScope, staticTokenAuthenticator } from '../identity/index.js';
import type { Authenticator } from '../identity/index.js';

export const ADMIN_SCOPE = 'rimthan:admin';

/** The admin gate over the admin tokens and the participant authenticator (whose principals lack the scope). */
export function adminAuthenticator(adminTokens: readonly string[], participant: Authenticator): Authenticator {
  return anyOf(
    requireScope(staticTokenAuthenticator(adminTokens, { scopes: [ADMIN_SCOPE] }), ADMIN_SCOPE),
    requireScope(participant, ADMIN_SCOPE),
  );
}
