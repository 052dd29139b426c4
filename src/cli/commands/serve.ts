/**
 * `rimthan serve`: builds the chosen profile once, then serves it over stdio (one server for the process) or stateless
 * Streamable HTTP (one server per request). Needs no configuration; notices and event lines (text or JSON,
 * `--log-format`) go to stderr, stdout carries only protocol. One ServiceMetrics per HTTP process, served by the Admin
 * API.
 *
 * Start-up is on the critical path of every MCP host that spawns this command and waits for its first answer, so this
 * file checks the options with cheap modules only and loads the rest for what was asked: one profile
 * (serve-workflow-engine.ts or serve-runs.ts) and one transport (stdio here, serve-http.ts for HTTP). Every refusal
 * still comes before anything is served; the validators of Rimthan's own schemas compile after the first answer
 * (core/schema.ts `warmDeferredSchemas`).
 */
import { warmDeferredSchemas } from '../../core/schema.js';
import { ProfileName } from '../../mcp/server/profile.js';
import { packageVersion } from '../../package/index.js';
import { adminSettings } from '../admin-wiring.js';
import type { AdminSettings } from '../admin-wiring.js';
import { choiceOption, intOption, optionDefault, parseCommand, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { UsageError } from '../errors.js';
import { IDENTITY_OPTION_NAMES } from '../identity-options.js';
import { isLoopback } from '../loopback.js';
import type { CliIo } from '../io.js';
import { requestCap } from '../serve-config.js';
import { logFormat, serveLog } from '../serve-log.js';
import type { ServeLog } from '../serve-log.js';
import { ServeObservability, serveTracing } from '../serve-observability.js';
import type { Serving } from '../serving.js';
import { SERVE_OPTIONS } from './serve-options.js';

const TOPIC = 'serve';
export const DEFAULT_HTTP_PORT = Number(optionDefault(SERVE_OPTIONS, 'port'));

function refuseOptions(parsed: Parsed, names: readonly string[], why: string): void {
  for (const name of names) {
    if (parsed.values[name] !== undefined) throw new UsageError(`--${name} ${why}`, TOPIC);
  }
}

/**
 * `--source` is an author's inner loop: it serves unpublished, unreviewed content from a working folder, so it never
 * listens beyond loopback and never takes a release store or an Admin API (publish a built release instead).
 */
function refuseSourceBeyondLoopback(parsed: Parsed): void {
  refuseOptions(parsed, ['releases', 'admin-port', 'admin-host', 'admin-token-file'], 'cannot be used with --source');
  const host = stringOption(parsed, 'host');
  if (host !== undefined && !isLoopback(host)) {
    throw new UsageError(`--source serves on loopback only (127.0.0.1, localhost or ::1), not ${host}`, TOPIC);
  }
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

/** What every start has once the options are checked. */
interface Start {
  readonly profile: ProfileName;
  readonly parsed: Parsed;
  readonly io: CliIo;
  readonly maxBytes: number;
  readonly log: ServeLog;
  /** `--drain-seconds` (HTTP only). */
  readonly drainSeconds: number;
}

/** Builds the chosen profile (its module loaded now); every start-up refusal of the profile throws here. */
async function buildServing(
  start: Start,
  context: { admin: AdminSettings | undefined; stdio: boolean; obs: ServeObservability },
): Promise<Serving> {
  const { parsed, io, maxBytes } = start;
  if (start.profile === ProfileName.WorkflowEngine) {
    const { serveWorkflowEngine } = await import('../serve-workflow-engine.js');
    return serveWorkflowEngine(parsed, io, maxBytes, context.admin, context.obs);
  }
  const { serveRuns } = await import('../serve-runs.js');
  return serveRuns(parsed, io, maxBytes, context.stdio, context.obs);
}

/**
 * What an Admin API would manage: the operator's `--releases` store (true), the packaged releases (false: refused), or
 * nothing (`none`, the runs profile).
 */
function adminContext(start: Start, http: boolean): Parameters<typeof adminSettings>[3] {
  const releases = start.profile === ProfileName.Runs ? 'none' : start.parsed.values['releases'] !== undefined;
  return { http, releases };
}

/** One server for the process over stdin/stdout, until stdin closes, stdout fails or a signal comes. */
async function serveOverStdio(start: Start): Promise<void> {
  const { profile, parsed, io, maxBytes } = start;
  const admin = adminSettings(parsed, io, TOPIC, adminContext(start, false));
  const obs = new ServeObservability(start.log, undefined, await serveTracing(io.env, 'stdio'));
  const serving = await buildServing(start, { admin, stdio: true, obs }).catch(async (error: unknown) => {
    await obs.close();
    throw error;
  });
  try {
    const { serveStdio } = await import('../../mcp/transports/stdio.js');
    obs.log.started({ profile, transport: 'stdio' });
    await serveStdio(
      () => serving.serverFor(serving.stdioPrincipal),
      Promise.race([io.untilStopped(), clientGone()]),
      // Deferred compiles run while the host is quiet after its first answers, before a tools/call needs them.
      { maxMessageBytes: maxBytes, idleWork: (idle) => warmDeferredSchemas(idle) },
    );
    obs.log.stopped();
  } finally {
    await serving.close();
    await obs.close();
  }
}

/** Stateless Streamable HTTP (and the Admin API when asked for), until SIGINT/SIGTERM. */
async function serveOverHttp(start: Start, port: number): Promise<void> {
  const { profile, parsed, io, maxBytes } = start;
  const host = stringOption(parsed, 'host') ?? optionDefault(SERVE_OPTIONS, 'host');
  const { ServiceMetrics } = await import('../../observability/metrics.js');
  const metrics = new ServiceMetrics();
  const obs = new ServeObservability(start.log, metrics, await serveTracing(io.env, 'http'));
  const http = await import('../serve-http.js');
  let serving: Serving;
  let identity: Awaited<ReturnType<typeof http.httpIdentity>>;
  let admin: AdminSettings | undefined;
  try {
    identity = await http.httpIdentity(parsed, io, { host, profile });
    admin = adminSettings(parsed, io, TOPIC, adminContext(start, true));
    serving = await buildServing(start, { admin, stdio: false, obs });
  } catch (error) {
    await obs.close();
    throw error;
  }
  try {
    // Between requests, on timers that never keep a stopping process alive.
    void warmDeferredSchemas(() => new Promise((resolve) => setTimeout(() => resolve(true), 0).unref()));
    const drainSeconds = start.drainSeconds;
    await http.serveHttp(parsed, io, {
      profile,
      host,
      port,
      maxBytes,
      identity,
      admin,
      serving,
      obs,
      metrics,
      drainSeconds,
    });
  } finally {
    await serving.close();
    await obs.close();
  }
}

/** `rimthan serve [options]`; resolves when stdin closes (stdio) or on SIGINT/SIGTERM (http). */
export async function serveCommand(argv: string[], io: CliIo): Promise<void> {
  const parsed = parseCommand(argv, SERVE_OPTIONS, TOPIC);
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
  const drainSeconds = intOption(parsed, 'drain-seconds', 0, 300, TOPIC) ?? 0;
  if (profileName === ProfileName.WorkflowEngine)
    refuseOptions(
      parsed,
      ['store', 'flows', 'session', 'concurrency', 'lease-ms', 'fail-removed-versions', 'retain-for', 'retain-last'],
      'applies only to --profile runs',
    );
  else refuseOptions(parsed, ['releases', 'source'], 'applies only to --profile workflow-engine');
  if (parsed.values['source'] !== undefined) refuseSourceBeyondLoopback(parsed);
  if (transport === 'stdio') {
    refuseOptions(
      parsed,
      ['port', 'host', 'drain-seconds', 'allowed-host', 'allowed-origin', ...IDENTITY_OPTION_NAMES],
      'applies only to --transport http',
    );
  } else {
    refuseOptions(parsed, ['session'], 'applies only to stdio (over HTTP the session is the authenticated principal)');
  }
  const maxBytes = requestCap(io.env, profileName);
  const log = serveLog(io, logFormat(parsed, io.env, TOPIC), packageVersion());
  const start: Start = { profile: profileName, parsed, io, maxBytes, log, drainSeconds };
  await (transport === 'stdio' ? serveOverStdio(start) : serveOverHttp(start, port));
}
