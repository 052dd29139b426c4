/**
 * Builds the durable-run stack the CLI needs: the run store from `--store`, the flow catalog from `--flows` (or the
 * example catalog), and a supervisor. Serving starts the supervisor (it executes runs); operator commands use an
 * unstarted one, which can still read and cancel runs without adopting any run into the CLI process, on a store that
 * must already exist.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isRimthanError } from '../core/index.js';
import { exampleCatalog, FlowCatalog, Supervisor } from '../runs/index.js';
import type { ErrorContext, FlowSpec, RunStore, StoreObserver, SupervisorOptions } from '../runs/index.js';
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

export interface RunsStackOptions {
  readonly storeSpec: string;
  readonly flows: string | undefined;
  readonly cwd: string;
  /**
   * `serve`: create the store when missing and start the supervisor (it executes runs). Operator commands: open only an
   * existing store and leave the supervisor idle.
   */
  readonly execute: boolean;
  readonly onFault?: (where: string, error: unknown) => void;
  /** A vertex try of a run threw (the flow's failure; default: reported to `onFault` as `supervisor`). */
  readonly onVertexFailed?: (flow: string, vertex: string, error: unknown) => void;
  /** Worker settings for serving (the defaults otherwise). */
  readonly worker?: Pick<SupervisorOptions, 'concurrency' | 'leaseMs' | 'removedVersions'>;
  /** The store's metrics hooks (serving). */
  readonly observer?: StoreObserver;
}

/** Opens store, catalog and supervisor; `close()` stops the supervisor and closes the store. */
export async function openRunsStack(opts: RunsStackOptions): Promise<RunsStack> {
  const catalog = await loadCatalog(opts.flows, opts.cwd);
  const store = await openStore(opts.storeSpec, opts.cwd, {
    create: opts.execute,
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
  });
  if (opts.execute) {
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
