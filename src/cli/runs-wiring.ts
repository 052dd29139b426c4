/**
 * Builds the durable-run stack the CLI needs: the run store from `--store`, the flow catalog from `--flows` (or the
 * example catalog), and a supervisor. Serving starts the supervisor (it executes runs); operator commands use an
 * unstarted one, which can still read and cancel runs without adopting any run into the CLI process.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isRimthanError } from '../core/index.js';
import { exampleCatalog, FlowCatalog, Supervisor } from '../runs/index.js';
import type { FlowSpec, RunStore, SupervisorOptions } from '../runs/index.js';
import { openRunStore } from '../runs/store/index.js';
import { createRunTools } from '../tools/index.js';
import type { RunTool } from '../tools/index.js';
import { CommandFailed } from './errors.js';

/** Default run store: a SQLite file under the working directory. */
export const DEFAULT_RUN_STORE = 'sqlite:./.rimthan/runs.db';

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
  if (module === undefined) return exampleCatalog();
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(resolve(cwd, module)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CommandFailed('flows_unavailable', `cannot load --flows module ${module}`, { cause: error });
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
  for (const flow of flows) catalog.register(flow as FlowSpec<never, never>);
  return catalog;
}

/** The SQLite file a store setting names, or undefined for PostgreSQL and in-memory databases. */
function sqlitePath(spec: string): string | undefined {
  const value = spec.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  const path = /^sqlite:/i.test(value) ? value.slice('sqlite:'.length) : value;
  return path === '' || path === ':memory:' ? undefined : path;
}

/** Opens the store named by `spec` (creating the SQLite file's folder when needed). */
export async function openStore(spec: string, cwd: string): Promise<RunStore> {
  const file = sqlitePath(spec);
  const absolute = file === undefined ? undefined : resolve(cwd, file);
  if (absolute !== undefined) mkdirSync(dirname(absolute), { recursive: true });
  const store = openRunStore(absolute === undefined ? spec : `sqlite:${absolute}`);
  try {
    await store.open();
  } catch (error) {
    if (isRimthanError(error)) throw error;
    throw new CommandFailed('store_unavailable', 'cannot open the run store', { cause: error });
  }
  return store;
}

export interface RunsStackOptions {
  readonly storeSpec: string;
  readonly flows: string | undefined;
  readonly cwd: string;
  /** Start the supervisor (serve) or leave it idle (operator commands). */
  readonly execute: boolean;
  readonly onFault?: (where: string, error: unknown) => void;
  /** Worker settings for serving (the defaults otherwise). */
  readonly worker?: Pick<SupervisorOptions, 'concurrency' | 'leaseMs' | 'removedVersions'>;
}

/** Opens store, catalog and supervisor; `close()` stops the supervisor and closes the store. */
export async function openRunsStack(opts: RunsStackOptions): Promise<RunsStack> {
  const catalog = await loadCatalog(opts.flows, opts.cwd);
  const store = await openStore(opts.storeSpec, opts.cwd);
  const onFault = opts.onFault;
  const supervisor = new Supervisor({
    store,
    catalog,
    ...opts.worker,
    ...(onFault === undefined ? {} : { onError: (error: unknown) => onFault('supervisor', error) }),
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
