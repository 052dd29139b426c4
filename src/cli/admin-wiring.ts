/**
 * `rimthan serve --admin-port N [--admin-host H] [--admin-token-file PATH]`: the Admin API's settings, checked once at
 * start (an admin listener without admin credentials is refused), and the listener itself, announced on stderr as
 * `admin listening on URL`. Admin tokens also authenticate on /mcp, where they are just participants. The runs
 * profile's admin listener has no release store: healthz, readyz and metrics only. The Admin API's code is loaded only
 * when a listener starts.
 */
import type { AdminEndpoint, AdminRequestTracer, MetricsSource } from '../admin/index.js';
import type { ReadinessProbe } from '../http/health.js';
import type { Authenticator } from '../identity/index.js';
import type { ReleaseFollower, ReleaseStore } from '../registry/index.js';
import { intOption, stringList, stringOption } from './args.js';
import type { Parsed } from './args.js';
import { CommandFailed, reasonOf, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { tokensFrom } from './serve-config.js';
import type { TokenSetting } from './serve-config.js';

export const ADMIN_OPTIONS = {
  'admin-port': { type: 'string' },
  'admin-host': { type: 'string' },
  'admin-token-file': { type: 'string' },
} as const;

export const ADMIN_TOKENS: TokenSetting = {
  option: '--admin-token-file',
  env: 'RIMTHAN_ADMIN_BEARER_TOKEN',
  what: 'an admin token',
};

export interface AdminSettings {
  readonly host: string;
  readonly port: number;
  readonly tokens: readonly string[];
  /** serve's `--allowed-host` and `--allowed-origin`: the one Host/Origin rule of every listener. */
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
}

/**
 * The admin settings, or undefined when no `--admin-port` was given (then `--admin-host` and `--admin-token-file` are
 * refused). `context` says which serve configuration this is: HTTP or not, and whether `--releases` names a store of
 * the operator's (`none`: the profile has no release store, the runs profile).
 */
export function adminSettings(
  parsed: Parsed,
  io: CliIo,
  topic: string,
  context: { readonly http: boolean; readonly releases: boolean | 'none' },
): AdminSettings | undefined {
  const port = intOption(parsed, 'admin-port', 0, 65535, topic);
  if (port === undefined) {
    for (const name of ['admin-host', 'admin-token-file']) {
      if (parsed.values[name] !== undefined) throw new UsageError(`--${name} needs --admin-port`, topic);
    }
    return undefined;
  }
  if (!context.http) throw new UsageError('--admin-port applies only to --transport http', topic);
  if (context.releases === false) {
    throw new UsageError(
      '--admin-port needs --releases DIR or --releases postgres://… (the packaged releases are read-only)',
      topic,
    );
  }
  const tokens = tokensFrom(ADMIN_TOKENS, stringOption(parsed, 'admin-token-file'), io);
  if (tokens === undefined) {
    throw new CommandFailed(
      'invalid_config',
      'an admin listener needs admin credentials: --admin-token-file FILE or RIMTHAN_ADMIN_BEARER_TOKEN',
    );
  }
  return {
    host: stringOption(parsed, 'admin-host') ?? '127.0.0.1',
    port,
    tokens,
    allowedHosts: stringList(parsed, 'allowed-host'),
    allowedOrigins: stringList(parsed, 'allowed-origin'),
  };
}

export interface StartAdminOptions {
  /** The release store and this replica's follower (workflow-engine profile). */
  readonly releases?: { readonly store: ReleaseStore; readonly follower: ReleaseFollower };
  /** The participant authenticator of /mcp: its principals lack `rimthan:admin` and are refused with 403. */
  readonly participant: Authenticator;
  /** The process's service metrics. */
  readonly metrics: MetricsSource;
  readonly onFault?: (error: unknown) => void;
  /** Traces every admin request (when tracing is on). */
  readonly trace?: AdminRequestTracer | undefined;
  /** The process's readiness, answered at the unauthenticated `GET /readyz`. */
  readonly readiness?: ReadinessProbe;
}

/** Starts the admin listener and prints `admin listening on URL`; a listen failure names the address. */
export async function startAdminListener(
  settings: AdminSettings,
  opts: StartAdminOptions,
  io: CliIo,
): Promise<AdminEndpoint> {
  const { adminAuthenticator, startAdminServer } = await import('../admin/index.js');
  let endpoint: AdminEndpoint;
  try {
    endpoint = await startAdminServer({
      host: settings.host,
      port: settings.port,
      allowedHosts: settings.allowedHosts,
      allowedOrigins: settings.allowedOrigins,
      ...(opts.releases === undefined ? {} : { releases: opts.releases }),
      authenticator: adminAuthenticator(settings.tokens, opts.participant),
      metrics: opts.metrics,
      ...(opts.onFault === undefined ? {} : { onFault: opts.onFault }),
      ...(opts.trace === undefined ? {} : { trace: opts.trace }),
      ...(opts.readiness === undefined ? {} : { readiness: opts.readiness }),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use (choose another with --admin-port)' : reasonOf(error);
    throw new CommandFailed('listen_failed', `cannot listen on ${settings.host}:${settings.port} (admin): ${why}`, {
      cause: error,
    });
  }
  io.err(`rimthan: admin listening on ${endpoint.url}`);
  return endpoint;
}
