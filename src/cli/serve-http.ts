/**
 * `rimthan serve --transport http`: the participant identity (static bearer tokens and/or OAuth) with its start-up
 * refusals, the Streamable HTTP listener, the optional Admin API listener, and the notices that announce them; serves
 * until SIGINT/SIGTERM, then drains (`/readyz` says `draining` for `--drain-seconds`) and closes. Loaded by serve.ts only for HTTP, so a stdio start never loads the HTTP stack, the identity
 * providers or the Admin API.
 */
import { ServiceHealth } from '../http/health.js';
import { anyOf, NO_AUTHENTICATION } from '../identity/authenticator.js';
import { staticTokenAuthenticator } from '../identity/static-tokens.js';
import { startHttpTransport } from '../mcp/transports/http.js';
import { ProfileName } from '../mcp/server/profile.js';
import { startAdminListener } from './admin-wiring.js';
import type { AdminSettings } from './admin-wiring.js';
import { stringList } from './args.js';
import type { Parsed } from './args.js';
import { CommandFailed, reasonOf } from './errors.js';
import { participantIdentity, refuseUnsafeExposure } from './identity-config.js';
import type { ParticipantIdentity } from './identity-config.js';
import type { CliIo } from './io.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import { drainPeriod } from './serve-health.js';
import type { ServeObservability } from './serve-observability.js';
import type { Serving } from './serving.js';

/** A listen failure in one line: the address, and why (the port is taken, needs privileges, is not ours). */
function listenFailure(host: string, port: number, error: unknown): CommandFailed {
  const code = (error as { code?: unknown }).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why =
    code === 'EADDRINUSE'
      ? 'the port is in use (stop what holds it, or choose another with --port; --port 0 picks a free one)'
      : code === 'EACCES'
        ? 'permission denied (ports below 1024 need privileges; choose another with --port)'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `${host} is not an address of this machine (check --host)`
          : reasonOf(error);
  return new CommandFailed('listen_failed', `cannot listen on ${where}: ${why}`, { cause: error });
}

/** The participant identity of the HTTP listener, with the refusals of an unsafe exposure (before any profile). */
export async function httpIdentity(
  parsed: Parsed,
  io: CliIo,
  where: { readonly host: string; readonly profile: ProfileName },
): Promise<ParticipantIdentity> {
  const identity = await participantIdentity(parsed, io);
  refuseUnsafeExposure({
    host: where.host,
    authenticated: identity.authenticator !== undefined,
    // Both profiles sign: checkpoints (workflow-engine), and the request states of forms (runs), which any worker
    // must verify.
    signs: true,
    env: io.env,
  });
  return identity;
}

export interface HttpServeOptions {
  readonly profile: ProfileName;
  readonly host: string;
  readonly port: number;
  readonly maxBytes: number;
  readonly identity: ParticipantIdentity;
  readonly admin: AdminSettings | undefined;
  readonly serving: Serving;
  readonly obs: ServeObservability;
  /** The process's metrics (the same object `obs` counts into), served by the Admin API. */
  readonly metrics: ServiceMetrics;
  /** Seconds between the stop signal and closing, `/readyz` saying `draining` meanwhile (`--drain-seconds`). */
  readonly drainSeconds: number;
}

/** Listens (MCP, then the Admin API when configured), announces both, and serves until the process is stopped. */
export async function serveHttp(parsed: Parsed, io: CliIo, opts: HttpServeOptions): Promise<void> {
  const { host, port, identity, admin, serving, obs } = opts;
  const authenticator = identity.authenticator;
  // An admin token on /mcp is just a participant (its own principal, no admin powers there).
  const adminAsParticipant = admin === undefined ? undefined : staticTokenAuthenticator(admin.tokens);
  const mcpAuthenticator =
    adminAsParticipant === undefined
      ? authenticator
      : authenticator === undefined
        ? adminAsParticipant
        : anyOf(authenticator, adminAsParticipant);
  const health = new ServiceHealth(serving.readiness);
  const endpoint = await startHttpTransport({
    host,
    port,
    maxRequestBytes: opts.maxBytes,
    // The loopback names and the listen address are the endpoint's own (src/http's guard adds them, with the port).
    allowedHosts: stringList(parsed, 'allowed-host'),
    allowedOrigins: stringList(parsed, 'allowed-origin'),
    ...(mcpAuthenticator === undefined ? {} : { authenticator: mcpAuthenticator }),
    ...(identity.protectedResource === undefined ? {} : { protectedResource: identity.protectedResource }),
    serverFor: (principal) => serving.serverFor(principal),
    onResponse: obs.onResponse,
    onFault: (error) => obs.onFault('http', error),
    readiness: health.readiness,
  }).catch((error: unknown) => {
    throw listenFailure(host, port, error);
  });
  obs.watchHttp(endpoint.server);
  io.err(
    `rimthan: ${opts.profile} profile listening on ${endpoint.url}${mcpAuthenticator === undefined ? ' (no bearer token)' : ''}`,
  );
  if (authenticator !== undefined) io.err(`rimthan: callers authenticate with ${identity.describe}`);
  if (authenticator === undefined && opts.profile === ProfileName.Runs) {
    io.err('rimthan: without a bearer token every HTTP caller shares the session "anonymous"');
  }
  const adminEndpoint =
    admin === undefined
      ? undefined
      : await startAdminListener(
          admin,
          {
            ...(serving.releases === undefined ? {} : { releases: serving.releases }),
            participant: authenticator ?? NO_AUTHENTICATION,
            metrics: opts.metrics,
            onFault: (error) => obs.onFault('admin', error),
            trace: obs.adminTracer(),
            readiness: health.readiness,
          },
          io,
        ).catch(async (error: unknown) => {
          await endpoint.close();
          throw error;
        });
  obs.log.started({ profile: opts.profile, transport: 'http', listen: endpoint.url });
  await io.untilStopped();
  // Proxies see `draining` and stop sending new calls while the ones under way (and any still sent) are answered.
  health.drain();
  await drainPeriod(io, opts.drainSeconds);
  obs.log.stopped();
  await adminEndpoint?.close();
  await endpoint.close();
}
