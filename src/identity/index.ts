/**
 * Identity: who a request comes from. Credentials (static bearer tokens, OAuth JWT access tokens) are verified here and turned into a
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
export {
  ASYMMETRIC_JWS_ALGORITHMS,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  jwtAuthenticator,
  scopesOf,
  type JwtAuthenticator,
  type JwtAuthenticatorOptions,
} from './jwt.js';
export { JwksCache, parseJwks, parseJwksLocation, type JwksCacheOptions, type JwksLocation } from './jwks.js';
export {
  PROTECTED_RESOURCE_WELL_KNOWN,
  protectedResourceMetadata,
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
} from './resource-metadata.js';
