/**
 * Identity: who a request comes from. Credentials (static bearer tokens today) are verified here and turned into a
 * `Principal` whose id is a one-way pseudonym; the transports (MCP over HTTP, the console) only ask an
 * `Authenticator` and answer its refusals. Nothing here knows MCP or HTTP servers exist.
 */
export { ANONYMOUS, type Principal } from './principal.js';
export { principalIdOf, type PrincipalCredential } from './principal-id.js';
export {
  anyOf,
  bearerChallenge,
  bearerTokenOf,
  missingOrInvalid,
  NO_AUTHENTICATION,
  requireScope,
  type Authenticator,
  type AuthOutcome,
  type AuthRefusal,
  type ChallengeOptions,
} from './authenticator.js';
export { staticTokenAuthenticator, type StaticTokenOptions } from './static-tokens.js';
