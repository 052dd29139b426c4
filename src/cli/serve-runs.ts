/**
 * The runs profile of `rimthan serve`, built once before serving: the run store (created when missing), the flow
 * catalog, the supervisor (started: it adopts unfinished runs and runs the deploy check), the stdio session, and the
 * profile factory. Loaded by serve.ts only for this profile, so a workflow-engine start never loads the run store.
 */
import { RequestStateCodec, systemClock, TokenSigner } from '../core/index.js';
import { ANONYMOUS } from '../identity/principal.js';
import { createRunsProfileFactory } from '../mcp/runs/profile.js';
import { createMcpServer } from '../mcp/server/server.js';
import { loadSigningSetup } from '../mcp/server/signing-key.js';
import { SUPERVISOR_DEFAULTS } from '../runs/supervisor/options.js';
import { intOption, stringOption } from './args.js';
import type { Parsed } from './args.js';
import type { CliIo } from './io.js';
import { DEFAULT_RUN_STORE, resolveStoreSpec } from './run-store.js';
import { openRunsStack, type RunsStackOptions } from './runs-wiring.js';
import { serveRetention } from './retention-options.js';
import type { ServeObservability } from './serve-observability.js';
import type { Serving } from './serving.js';
import { keepSession, sessionFileFor } from './stdio-session.js';

const TOPIC = 'serve';

/** --concurrency, --lease-ms, --fail-removed-versions, --retain-for and --retain-last (runs profile). */
function workerOptions(parsed: Parsed): NonNullable<RunsStackOptions['worker']> {
  const concurrency = intOption(parsed, 'concurrency', 1, SUPERVISOR_DEFAULTS.maxConcurrency, TOPIC);
  const leaseMs = intOption(parsed, 'lease-ms', SUPERVISOR_DEFAULTS.minLeaseMs, 86_400_000, TOPIC);
  const retention = serveRetention(parsed, TOPIC);
  return {
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(parsed.values['fail-removed-versions'] === true ? { removedVersions: 'fail' as const } : {}),
    ...(retention === undefined ? {} : { retention }),
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

/** Builds the runs profile; refusals (a bad store, flows module or session, the deploy check) throw before serving. */
export async function serveRuns(
  parsed: Parsed,
  io: CliIo,
  maxBytes: number,
  stdio: boolean,
  obs: ServeObservability,
): Promise<Serving> {
  const onFault = obs.onFault;
  const storeSpec = stringOption(parsed, 'store') ?? DEFAULT_RUN_STORE;
  // A person's resume asked as a form (and a task's form answered through tasks/update) is bound by a request state
  // signed with the checkpoint key ring; task-declaring clients get workflow_run_start as a task (mcp/extensions/tasks.ts).
  const codec = new RequestStateCodec(new TokenSigner(loadSigningSetup(io.env).ring), systemClock);
  const observer = obs.metrics?.storeObserver();
  const tracer = obs.runTracer();
  const stack = await openRunsStack({
    storeSpec,
    flows: stringOption(parsed, 'flows'),
    cwd: io.cwd,
    role: 'worker',
    onFault,
    onVertexFailed: obs.onVertexFailed,
    worker: {
      ...workerOptions(parsed),
      onPruned: (flow, runs) => io.err(`rimthan: retention deleted ${runs} finished run(s) of flow ${flow}`),
    },
    ...(observer === undefined ? {} : { observer }),
    ...(tracer === undefined ? {} : { tracer }),
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
