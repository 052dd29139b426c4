/**
 * `rimthan serve`: builds the chosen profile once, then serves it over stdio (one server for the process) or stateless
 * Streamable HTTP (one server per request). Needs no configuration; notices and event lines (text or JSON,
 * `--log-format`) go to stderr, stdout carries only protocol. One ServiceMetrics per process, served by the Admin API.
 */
import type { Server } from '@modelcontextprotocol/server';
import { RequestStateCodec, systemClock, TokenSigner } from '../../core/index.js';
import { ANONYMOUS, anyOf, NO_AUTHENTICATION, staticTokenAuthenticator } from '../../identity/index.js';
import type { Principal } from '../../identity/index.js';
import {
  createMcpServer,
  createRunsProfileFactory,
  createWorkflowEngineProfile,
  loadSigningSetup,
  packageVersion,
  ProfileName,
  followerReleaseProvider,
  serveStdio,
  startHttpTransport,
} from '../../mcp/index.js';
import type { ReleaseFollower, ReleaseStore } from '../../registry/index.js';
import { ADMIN_OPTIONS, adminSettings, startAdminListener } from '../admin-wiring.js';
import type { AdminSettings } from '../admin-wiring.js';
import { followReleases, openReleaseStore } from '../release-store-config.js';
import { choiceOption, intOption, parseCommand, stringList, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { CommandFailed, reasonOf, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { SUPERVISOR_DEFAULTS } from '../../runs/index.js';
import { DEFAULT_RUN_STORE, resolveStoreSpec } from '../run-store.js';
import { openRunsStack, type RunsStackOptions } from '../runs-wiring.js';
import { keepSession, sessionFileFor } from '../stdio-session.js';
import { requestCap } from '../serve-config.js';
import { LOG_OPTIONS, logFormat, serveLog } from '../serve-log.js';
import { ServeObservability } from '../serve-observability.js';
import { checkpointMaxAgeMs } from '../checkpoint-config.js';
import {
  IDENTITY_OPTION_NAMES,
  IDENTITY_OPTIONS,
  participantIdentity,
  refuseUnsafeExposure,
} from '../identity-config.js';

const TOPIC = 'serve';
export const DEFAULT_HTTP_PORT = 8765;

const OPTIONS = {
  profile: { type: 'string' },
  transport: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  releases: { type: 'string' },
  store: { type: 'string' },
  flows: { type: 'string' },
  session: { type: 'string' },
  concurrency: { type: 'string' },
  'lease-ms': { type: 'string' },
  'fail-removed-versions': { type: 'boolean' },
  ...IDENTITY_OPTIONS,
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  ...ADMIN_OPTIONS,
  ...LOG_OPTIONS,
} as const;

interface Serving {
  serverFor(principal: Principal): Server;
  /** The stdio principal (runs: the session id). */
  readonly stdioPrincipal: Principal;
  /** The release store and this replica's follower (workflow-engine profile). */
  readonly releases?: { readonly store: ReleaseStore; readonly follower: ReleaseFollower };
  close(): Promise<void>;
}

function refuseOptions(parsed: Parsed, names: readonly string[], why: string): void {
  for (const name of names) {
    if (parsed.values[name] !== undefined) throw new UsageError(`--${name} ${why}`, TOPIC);
  }
}

async function workflowEngine(
  parsed: Parsed,
  io: CliIo,
  maxBytes: number,
  admin: AdminSettings | undefined,
  obs: ServeObservability,
): Promise<Serving> {
  const maxAgeMs = checkpointMaxAgeMs(io.env);
  const signing = loadSigningSetup(io.env);
  if (signing.source === 'environment') {
    io.err(`rimthan: signing checkpoints with key "${signing.ring.activeKeyId}" from RIMTHAN_WORKFLOW_SIGNING_SECRET`);
  } else {
    const verb = signing.created ? 'generated a new signing key in' : 'signing checkpoints with the key in';
    io.err(`rimthan: ${verb} ${signing.path ?? ''} (set RIMTHAN_WORKFLOW_SIGNING_SECRET to manage keys yourself)`);
  }
  const store = await openReleaseStore(stringOption(parsed, 'releases'), io);
  // With an Admin API the service may start empty: it becomes ready when a release is published and activated.
  const follower = await followReleases(store, obs.followerEvents(), { allowEmpty: admin !== undefined });
  obs.followReleases(follower);
  const profile = obs.observed(
    createWorkflowEngineProfile({
      releases: followerReleaseProvider(follower),
      signer: new TokenSigner(signing.ring),
      checkpointMaxAgeMs: maxAgeMs,
      maxArgumentBytes: maxBytes,
      onFault: obs.onFault,
    }),
  );
  return {
    // An elicited question's request state is bound to the authenticated caller (none on stdio or without tokens).
    serverFor: (principal) => createMcpServer(profile, principal.authenticated ? { principalId: principal.id } : {}),
    stdioPrincipal: ANONYMOUS,
    releases: { store, follower },
    close: async () => {
      await follower.stop();
      await store.close();
    },
  };
}

/** --concurrency, --lease-ms and --fail-removed-versions (runs profile). */
function workerOptions(parsed: Parsed): NonNullable<RunsStackOptions['worker']> {
  const concurrency = intOption(parsed, 'concurrency', 1, SUPERVISOR_DEFAULTS.maxConcurrency, TOPIC);
  const leaseMs = intOption(parsed, 'lease-ms', SUPERVISOR_DEFAULTS.minLeaseMs, 86_400_000, TOPIC);
  return {
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(parsed.values['fail-removed-versions'] === true ? { removedVersions: 'fail' as const } : {}),
  };
}

/** The stdio session: `--session`, else the one kept beside the store (generated on first use). */
function stdioSession(parsed: Parsed, storeSpec: string, io: CliIo): { id: string; notice: string } {
  const given = stringOption(parsed, 'session');
  if (given !== undefined) return { id: given, notice: `rimthan: runs session ${given} (from --session)` };
  const file = sessionFileFor(resolveStoreSpec(storeSpec, io.cwd).location, io.env);
  const kept = keepSession(file);
  const verb = kept.created ? 'generated and kept in' : 'kept in';
  return { id: kept.id, notice: `rimthan: runs session ${kept.id} (${verb} ${file}; --session ID overrides it)` };
}

async function runs(
  parsed: Parsed,
  io: CliIo,
  maxBytes: number,
  stdio: boolean,
  obs: ServeObservability,
): Promise<Serving> {
  const onFault = obs.onFault;
  const storeSpec = stringOption(parsed, 'store') ?? DEFAULT_RUN_STORE;
  // A person's resume asked as a form (and a task's form answered through tasks/update) is bound by a request state
  // signed with the checkpoint key ring; task-declaring clients get workflow_run_start as a task (run-tasks.ts).
  const codec = new RequestStateCodec(new TokenSigner(loadSigningSetup(io.env).ring), systemClock);
  const stack = await openRunsStack({
    storeSpec,
    flows: stringOption(parsed, 'flows'),
    cwd: io.cwd,
    execute: true,
    onFault,
    worker: workerOptions(parsed),
    observer: obs.metrics.storeObserver(),
  });
  obs.countRuns(stack.store);
  const failed = stack.supervisor.deployment.failed;
  if (failed.length > 0)
    io.err(`rimthan: failed ${failed.length} unfinished run(s) of flow versions no longer deployed`);
  const factory = createRunsProfileFactory({
    toolsFor: (id) => stack.toolsFor(id),
    maxArgumentBytes: maxBytes,
    onFault,
    elicitation: { catalog: stack.catalog, codec },
    tasks: true,
  });
  let session: { id: string; notice: string } | undefined;
  try {
    session = stdio ? stdioSession(parsed, storeSpec, io) : undefined;
  } catch (error) {
    await stack.close();
    throw error;
  }
  if (session !== undefined) io.err(session.notice);
  return {
    serverFor: (principal) => createMcpServer(obs.observed(factory.forSession(principal.id))),
    stdioPrincipal: { ...ANONYMOUS, id: session?.id ?? ANONYMOUS.id },
    close: () => stack.close(),
  };
}

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

/**
 * Resolves when stdout fails (EPIPE: the client closed its end of the pipe). That is an ordinary disconnect, not a
 * fault: the server closes and the process exits 0. The listener stays attached so a write still in flight cannot
 * raise an unhandled stream error afterwards.
 */
function clientGone(): Promise<void> {
  return new Promise((resolve) => {
    process.stdout.on('error', () => resolve());
  });
}

/** `rimthan serve [options]`; resolves when stdin closes (stdio) or on SIGINT/SIGTERM (http). */
export async function serveCommand(argv: string[], io: CliIo): Promise<void> {
  const parsed = parseCommand(argv, OPTIONS, TOPIC);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument: ${parsed.positionals[0] ?? ''}`, TOPIC);
  const profileName = choiceOption(
    parsed,
    'profile',
    [ProfileName.WorkflowEngine, ProfileName.Runs],
    ProfileName.WorkflowEngine,
    TOPIC,
  );
  const transport = choiceOption(parsed, 'transport', ['stdio', 'http'] as const, 'stdio', TOPIC);
  const port = intOption(parsed, 'port', 0, 65535, TOPIC) ?? DEFAULT_HTTP_PORT;
  if (profileName === ProfileName.WorkflowEngine)
    refuseOptions(
      parsed,
      ['store', 'flows', 'session', 'concurrency', 'lease-ms', 'fail-removed-versions'],
      'applies only to --profile runs',
    );
  else refuseOptions(parsed, ['releases'], 'applies only to --profile workflow-engine');
  if (transport === 'stdio') {
    refuseOptions(
      parsed,
      ['port', 'host', 'allowed-host', 'allowed-origin', ...IDENTITY_OPTION_NAMES],
      'applies only to --transport http',
    );
  } else {
    refuseOptions(parsed, ['session'], 'applies only to stdio (over HTTP the session is the authenticated principal)');
  }
  const maxBytes = requestCap(io.env, profileName);
  const obs = new ServeObservability(serveLog(io, logFormat(parsed, io.env, TOPIC), packageVersion()));
  const host = stringOption(parsed, 'host') ?? '127.0.0.1';
  const identity = transport === 'http' ? await participantIdentity(parsed, io) : undefined;
  if (identity !== undefined) {
    refuseUnsafeExposure({
      host,
      authenticated: identity.authenticator !== undefined,
      signs: profileName === ProfileName.WorkflowEngine,
      env: io.env,
    });
  }
  const authenticator = identity?.authenticator;

  const admin: AdminSettings | undefined = adminSettings(parsed, io, TOPIC, {
    http: transport === 'http',
    releases: profileName === ProfileName.Runs ? 'none' : parsed.values['releases'] !== undefined,
  });
  // An admin token on /mcp is just a participant (its own principal, no admin powers there).
  const adminAsParticipant = admin === undefined ? undefined : staticTokenAuthenticator(admin.tokens);
  const mcpAuthenticator =
    adminAsParticipant === undefined
      ? authenticator
      : authenticator === undefined
        ? adminAsParticipant
        : anyOf(authenticator, adminAsParticipant);

  const serving =
    profileName === ProfileName.WorkflowEngine
      ? await workflowEngine(parsed, io, maxBytes, admin, obs)
      : await runs(parsed, io, maxBytes, transport === 'stdio', obs);
  try {
    if (transport === 'stdio') {
      obs.log.started({ profile: profileName, transport });
      await serveStdio(
        () => serving.serverFor(serving.stdioPrincipal),
        Promise.race([io.untilStopped(), clientGone()]),
        { maxMessageBytes: maxBytes },
      );
      obs.log.stopped();
      return;
    }
    // The listen address is also a name clients may use (an IPv6 literal appears in Host in brackets).
    const asHostName = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    const specificHost = host !== '0.0.0.0' && host !== '::' ? [asHostName] : [];
    const endpoint = await startHttpTransport({
      host,
      port,
      maxRequestBytes: maxBytes,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]', ...specificHost, ...stringList(parsed, 'allowed-host')],
      allowedOrigins: stringList(parsed, 'allowed-origin'),
      ...(mcpAuthenticator === undefined ? {} : { authenticator: mcpAuthenticator }),
      ...(identity?.protectedResource === undefined ? {} : { protectedResource: identity.protectedResource }),
      serverFor: (principal) => serving.serverFor(principal),
      onResponse: obs.onResponse,
      onFault: (error) => obs.onFault('http', error),
    }).catch((error: unknown) => {
      throw listenFailure(host, port, error);
    });
    obs.watchHttp(endpoint.server);
    io.err(
      `rimthan: ${profileName} profile listening on ${endpoint.url}${mcpAuthenticator === undefined ? ' (no bearer token)' : ''}`,
    );
    if (authenticator !== undefined) io.err(`rimthan: callers authenticate with ${identity?.describe ?? ''}`);
    if (authenticator === undefined && profileName === ProfileName.Runs) {
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
              metrics: obs.metrics,
              onFault: (error) => obs.onFault('admin', error),
            },
            io,
          ).catch(async (error: unknown) => {
            await endpoint.close();
            throw error;
          });
    obs.log.started({ profile: profileName, transport, listen: endpoint.url });
    await io.untilStopped();
    obs.log.stopped();
    await adminEndpoint?.close();
    await endpoint.close();
  } finally {
    await serving.close();
  }
}
