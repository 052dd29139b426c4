/**
 * Builds the durable-run stack the CLI needs: the run store from `--store`, the flow catalog from `--flows` (or the
 * example catalog), and a supervisor in one of three roles. A worker (`serve --profile runs`) starts it: it claims and
 * executes runs. An observer (`console`) lets it accept starts, resumes and cancels that the workers then execute, and
 * never claims or runs anything itself. An operator command leaves it unstarted: it can still read and cancel runs
 * without adopting any run into the CLI process, on a store that must already exist.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isRimthanError } from '../core/index.js';
import { exampleCatalog, FlowCatalog, Supervisor } from '../runs/index.js';
import type { ErrorContext, FlowSpec, RunStore, RunTracer, StoreObserver, SupervisorOptions } from '../runs/index.js';
import { createRunTools } from '../tools/index.js';
import type { RunTool } from '../tools/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import { openStore } from './run-store.js';

export interface RunsStack {
  readonly store: RunStore;
  readonly catalog: FlowCatalog;
  readonly supervisor: Supervisor;
  toolsFor(sessionId: string): RunTool[];
  close(): Promise<void>;
}

function isCatalog(value: unknown): value is FlowCatalog {
  return (
    value instanceof FlowCatalog ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { resolve?: unknown }).resolve === 'function' &&
      typeof (value as { list?: unknown }).list === 'function' &&
      typeof (value as { register?: unknown }).register === 'function')
  );
}

/** Loads `--flows MODULE`: a module exporting `flows` (flow definitions) or a default FlowCatalog. */
export async function loadCatalog(module: string | undefined, cwd: string): Promise<FlowCatalog> {
  if (module === undefined) return exampleCatalog({ workspace: cwd });
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(resolve(cwd, module)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CommandFailed('flows_unavailable', `cannot load --flows module ${module}: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  if (isCatalog(loaded['default'])) return loaded['default'];
  const flows = loaded['flows'];
  if (!Array.isArray(flows)) {
    throw new CommandFailed(
      'flows_unavailable',
      `--flows module ${module} exports neither \`flows\` nor a default FlowCatalog`,
    );
  }
  const catalog = new FlowCatalog();
  for (const [i, flow] of flows.entries()) {
    try {
      catalog.register(flow as FlowSpec<never, never>);
    } catch (error) {
      if (!isRimthanError(error)) throw error;
      throw new CommandFailed('flows_invalid', `--flows module ${module}: flows[${i}] is refused: ${error.message}`, {
        cause: error,
      });
    }
  }
  return catalog;
}

/** What the process does with the run store (see RunsStackOptions.role). */
export type RunsRole = 'worker' | 'observer' | 'operator';

export interface RunsStackOptions {
  readonly storeSpec: string;
  readonly flows: string | undefined;
  readonly cwd: string;
  /**
   * `worker` (serve): create the store when missing and start the supervisor (it executes runs). `observer` (console):
   * create the store when missing; runs are started, resumed and cancelled, never claimed or executed here. `operator`
   * (the runs commands): open only an existing store and leave the supervisor idle.
   */
  readonly role: RunsRole;
  readonly onFault?: (where: string, error: unknown) => void;
  /** A vertex try of a run threw (the flow's failure; default: reported to `onFault` as `supervisor`). */
  readonly onVertexFailed?: (flow: string, vertex: string, error: unknown) => void;
  /** Worker settings for serving (the defaults otherwise). */
  readonly worker?: Pick<SupervisorOptions, 'concurrency' | 'leaseMs' | 'removedVersions' | 'retention' | 'onPruned'>;
  /** The store's metrics hooks (serving). */
  readonly observer?: StoreObserver;
  /** Traces each execution of a run and its vertices (serving, when tracing is on). */
  readonly tracer?: RunTracer;
}

/** Opens store, catalog and supervisor; `close()` stops the supervisor and closes the store. */
export async function openRunsStack(opts: RunsStackOptions): Promise<RunsStack> {
  const catalog = await loadCatalog(opts.flows, opts.cwd);
  const store = await openStore(opts.storeSpec, opts.cwd, {
    create: opts.role !== 'operator',
    ...(opts.observer === undefined ? {} : { observer: opts.observer }),
  });
  const onFault = opts.onFault;
  const supervisor = new Supervisor({
    store,
    catalog,
    ...opts.worker,
    ...(onFault === undefined
      ? {}
      : {
          onError: (error: unknown, where: ErrorContext) => {
            const vertexFailed = opts.onVertexFailed;
            if (where.phase === 'vertex' && where.flow !== undefined && where.vertex !== undefined && vertexFailed) {
              vertexFailed(where.flow, where.vertex, error);
            } else onFault('supervisor', error);
          },
        }),
    ...(opts.tracer === undefined ? {} : { tracer: opts.tracer }),
  });
  if (opts.role === 'observer') supervisor.observe();
  if (opts.role === 'worker') {
    try {
      await supervisor.start();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return {
    store,
    catalog,
    supervisor,
    toolsFor: (sessionId) =>
      createRunTools({
        sessionId,
        catalog,
        store,
        supervisor: supervisor.forSession(sessionId),
        ...(onFault === undefined ? {} : { onFault }),
      }),
    async close() {
      await supervisor.stop();
      await store.close();
    },
  };
}
