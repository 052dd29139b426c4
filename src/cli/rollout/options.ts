/**
 * The settings every `rimthan rollout` command shares, checked once: the organisation's endpoint (`--url`: https, http
 * only on loopback, nothing secret in it), how participants authenticate (a bearer token read from an environment
 * variable, or OAuth through the host) and the folder the files go to. A token is never an input: the files are
 * copied to every participant's machine.
 */
import { intOption, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';

/** How participants authenticate to the endpoint. */
export type RolloutAuth =
  | { readonly kind: 'bearer'; readonly tokenEnv: string }
  | { readonly kind: 'oauth'; readonly clientId?: string; readonly callbackPort?: number };

export interface RolloutSettings {
  /** The endpoint, normalised (`new URL(...).href`): every file names it in exactly this form. */
  readonly url: URL;
  readonly auth: RolloutAuth;
  readonly out: string;
  readonly force: boolean;
}

/** The default environment variable a participant's token is read from. */
export const DEFAULT_TOKEN_ENV = 'RIMTHAN_TOKEN';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isLoopbackHost(hostname: string): boolean {
  return /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(hostname);
}

/** `--url`: the MCP endpoint participants connect to. */
function endpoint(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CommandFailed('invalid_config', '--url must be an https:// URL (http:// only on a loopback host)');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new CommandFailed('invalid_config', '--url must be an https:// URL (http:// only on a loopback host)');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new CommandFailed(
      'invalid_config',
      "--url must have no credentials, query or fragment (it is written into every participant's files): participants authenticate with --token-env or --oauth",
    );
  }
  return url;
}

/** The authentication options: `--token-env NAME` (default) or `--oauth` with its client settings. */
function authOf(parsed: Parsed, topic: string, oauthOptions: readonly string[]): RolloutAuth {
  const oauth = parsed.values['oauth'] === true;
  const tokenEnv = stringOption(parsed, 'token-env');
  if (!oauth) {
    const stray = oauthOptions.find((name) => parsed.values[name] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} applies only to --oauth`, topic);
    const name = tokenEnv ?? DEFAULT_TOKEN_ENV;
    if (!ENV_NAME.test(name)) {
      throw new UsageError(
        '--token-env must name an environment variable (letters, digits and _, not starting with a digit)',
        topic,
      );
    }
    return { kind: 'bearer', tokenEnv: name };
  }
  if (tokenEnv !== undefined)
    throw new UsageError('--token-env applies only to bearer tokens (without --oauth)', topic);
  const clientId = stringOption(parsed, 'oauth-client-id');
  const callbackPort = oauthOptions.includes('oauth-callback-port')
    ? intOption(parsed, 'oauth-callback-port', 1, 65535, topic)
    : undefined;
  return {
    kind: 'oauth',
    ...(clientId === undefined ? {} : { clientId }),
    ...(callbackPort === undefined ? {} : { callbackPort }),
  };
}

/** The shared settings of a rollout command; `oauthOptions` are the `--oauth-*` options this host supports. */
export function rolloutSettings(parsed: Parsed, topic: string, oauthOptions: readonly string[]): RolloutSettings {
  const url = stringOption(parsed, 'url');
  if (url === undefined) {
    throw new UsageError('--url URL is required (the MCP endpoint, e.g. https://mcp.example.org/mcp)', topic);
  }
  const out = stringOption(parsed, 'out');
  if (out === undefined) throw new UsageError('--out DIR is required', topic);
  const auth = authOf(parsed, topic, oauthOptions);
  return { url: endpoint(url), auth, out, force: parsed.values['force'] === true };
}
