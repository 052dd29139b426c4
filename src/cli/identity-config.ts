/**
 * Who may call `rimthan serve --transport http`, built once at start from options and environment: static bearer
 * tokens (`--token-file`, RIMTHAN_MCP_BEARER_TOKEN), OAuth 2.1 access tokens (`--oauth-issuer`, `--oauth-audience`,
 * `--oauth-jwks`, optionally `--oauth-resource`; or their RIMTHAN_OAUTH_* variables), or both (either is accepted).
 * Also the start-up refusals: no HTTP listener beyond loopback without participant authentication, nor without a
 * signing secret from the environment. Every problem names the setting, never a value that could be a secret.
 */
import type { Authenticator, JwtAuthenticator, ProtectedResourceMetadata } from '../identity/index.js';
import {
  anyOf,
  jwtAuthenticator,
  parseJwksLocation,
  protectedResourceMetadata,
  staticTokenAuthenticator,
} from '../identity/index.js';
import { isRimthanError } from '../core/index.js';
import type { Parsed } from './args.js';
import { stringOption } from './args.js';
import { CommandFailed, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { isLoopback } from './loopback.js';
import { bearerTokens } from './serve-config.js';

/** Each OAuth setting: its option and its environment variable. */
const OAUTH_SETTINGS = {
  issuer: { option: 'oauth-issuer', env: 'RIMTHAN_OAUTH_ISSUER' },
  audience: { option: 'oauth-audience', env: 'RIMTHAN_OAUTH_AUDIENCE' },
  jwks: { option: 'oauth-jwks', env: 'RIMTHAN_OAUTH_JWKS' },
  resource: { option: 'oauth-resource', env: 'RIMTHAN_OAUTH_RESOURCE' },
} as const;
type OAuthSetting = keyof typeof OAUTH_SETTINGS;

/** The participant side of an HTTP listener. */
export interface ParticipantIdentity {
  /** Undefined when no credential is configured (loopback only). */
  readonly authenticator: Authenticator | undefined;
  /** The OAuth part alone (the Admin API gates it with `requireScope(oauth, 'rimthan:admin')`). */
  readonly oauth: JwtAuthenticator | undefined;
  /** The RFC 9728 document the MCP listener serves when OAuth is configured. */
  readonly protectedResource: ProtectedResourceMetadata | undefined;
  /** How many static tokens are configured (0 for none). */
  readonly staticTokens: number;
  /** One line for the start-up notice: `bearer tokens`, `OAuth (issuer ...)`, both, or `no authentication`. */
  readonly describe: string;
}

function setting(parsed: Parsed, env: CliIo['env'], which: OAuthSetting): { value: string; name: string } | undefined {
  const { option, env: variable } = OAUTH_SETTINGS[which];
  const fromOption = stringOption(parsed, option);
  if (fromOption !== undefined) return { value: fromOption.trim(), name: `--${option}` };
  const fromEnv = env[variable];
  return fromEnv === undefined || fromEnv.trim() === '' ? undefined : { value: fromEnv.trim(), name: variable };
}

function isLoopbackUrlHost(hostname: string): boolean {
  return /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(hostname);
}

/** An issuer identifier: an https URL without query or fragment (http only on loopback, for a local provider). */
function checkIssuer(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CommandFailed('invalid_config', `${name} must be the authorization server's issuer URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrlHost(url.hostname))) {
    throw new CommandFailed('invalid_config', `${name} must be an https:// URL (http:// only on a loopback host)`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new CommandFailed('invalid_config', `${name} must have no query, fragment or credentials`);
  }
}

function asConfigFailure(error: unknown): never {
  if (isRimthanError(error) && error.code === 'invalid_config') {
    throw new CommandFailed('invalid_config', error.message, { cause: error });
  }
  throw error;
}

/**
 * The OAuth authenticator and its metadata, or undefined when no OAuth setting is given. Issuer, audience and key set
 * come together; the key set is loaded now, so an unreadable file, an unreachable URL or a set that is not public
 * asymmetric keys stops the start, naming the setting.
 */
async function oauthIdentity(
  parsed: Parsed,
  io: CliIo,
): Promise<{ oauth: JwtAuthenticator; metadata: ProtectedResourceMetadata } | undefined> {
  const issuer = setting(parsed, io.env, 'issuer');
  const audience = setting(parsed, io.env, 'audience');
  const jwks = setting(parsed, io.env, 'jwks');
  const resource = setting(parsed, io.env, 'resource');
  if (issuer === undefined && audience === undefined && jwks === undefined) {
    if (resource !== undefined) {
      throw new UsageError(`${resource.name} needs --oauth-issuer, --oauth-audience and --oauth-jwks`, 'serve');
    }
    return undefined;
  }
  const missing = (['issuer', 'audience', 'jwks'] as const).filter((k) => setting(parsed, io.env, k) === undefined);
  if (issuer === undefined || audience === undefined || jwks === undefined) {
    const names = missing.map((k) => `--oauth-${k} (or ${OAUTH_SETTINGS[k].env})`).join(' and ');
    throw new UsageError(`OAuth needs ${names} as well`, 'serve');
  }
  checkIssuer(issuer.value, issuer.name);
  if (audience.value.length > 1024) throw new CommandFailed('invalid_config', `${audience.name} is too long`);
  // The resource identifier defaults to the audience when that is the endpoint's URL (what MCP clients send).
  const resourceValue = resource?.value ?? audience.value;
  const resourceName = resource?.name ?? `${audience.name} (as the resource URL; set --oauth-resource otherwise)`;
  try {
    const metadata = protectedResourceMetadata({
      resource: resourceValue,
      authorizationServers: [issuer.value],
      setting: resourceName,
    });
    const oauth = jwtAuthenticator({
      issuer: issuer.value,
      audience: audience.value,
      jwks: parseJwksLocation(jwks.value, jwks.name),
      jwksOptions: { setting: jwks.name },
    });
    await oauth.keys.load();
    return { oauth, metadata };
  } catch (error) {
    return asConfigFailure(error);
  }
}

/** Builds the participant authentication of an HTTP listener (see the module comment). */
export async function participantIdentity(parsed: Parsed, io: CliIo): Promise<ParticipantIdentity> {
  const tokens = bearerTokens(stringOption(parsed, 'token-file'), io);
  const oauth = await oauthIdentity(parsed, io);
  const fromTokens = tokens === undefined ? undefined : staticTokenAuthenticator(tokens);
  const parts = [fromTokens, oauth?.oauth].filter((a): a is Authenticator => a !== undefined);
  const describe = [
    ...(tokens === undefined ? [] : [`${tokens.length} bearer token${tokens.length === 1 ? '' : 's'}`]),
    ...(oauth === undefined ? [] : [`OAuth access tokens from ${oauth.oauth.issuer}`]),
  ];
  return {
    authenticator: parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : anyOf(...parts),
    oauth: oauth?.oauth,
    protectedResource: oauth?.metadata,
    staticTokens: tokens?.length ?? 0,
    describe: describe.length === 0 ? 'no authentication' : describe.join(' or '),
  };
}

export { isLoopback };

/** What a listener beyond loopback must have. */
export interface Exposure {
  readonly host: string;
  readonly authenticated: boolean;
  /** True when this profile signs what another replica must verify (checkpoints; a runs form's request state). */
  readonly signs: boolean;
  readonly env: CliIo['env'];
}

/**
 * Refuses to serve beyond loopback without participant authentication (anyone who can reach the port could call
 * the tools; with the runs profile, read and cancel every run of the shared "anonymous" session), or without a
 * signing secret from the environment (a key generated into one machine's state folder cannot be shared by replicas
 * nor rotated by the operator: a checkpoint, or a runs form's answer, landing on another worker is refused as tampered).
 */
export function refuseUnsafeExposure(exposure: Exposure): void {
  if (isLoopback(exposure.host)) return;
  if (!exposure.authenticated) {
    throw new UsageError(
      `serving on ${exposure.host} needs participant authentication (--token-file, RIMTHAN_MCP_BEARER_TOKEN, or --oauth-issuer with --oauth-audience and --oauth-jwks); without it, serve on 127.0.0.1`,
      'serve',
    );
  }
  const secret = exposure.env['RIMTHAN_WORKFLOW_SIGNING_SECRET'];
  if (exposure.signs && (secret === undefined || secret === '')) {
    throw new UsageError(
      `serving on ${exposure.host} needs RIMTHAN_WORKFLOW_SIGNING_SECRET (and RIMTHAN_WORKFLOW_SIGNING_KEY_ID) from the environment, shared by every replica; without it, serve on 127.0.0.1`,
      'serve',
    );
  }
}
