/**
 * A Rimthan durable-run runtime for the runs suite: SQLite store (WAL, synchronous=FULL), flow catalog with the bench
 * flows, supervisor, its session controller and the seven run tools — built exactly as a host would build them.
 */
import type { JsonObject } from '../../src/core/json.js';
import {
  defineFlow,
  FlowCatalog,
  SqliteRunStore,
  Supervisor,
  TERMINAL_STATUSES,
  type RunRecord,
  type FlowSpec,
  type RunStore,
  type SessionController,
} from '../../src/runs/index.js';
import { createRunTools, findRunTool, type RunTool, type RunToolName } from '../../src/tools/index.js';
import { createPendingRun } from '../../test/runs/helpers.js';
import { ObservedStore } from './observed-store.js';

export const SESSION = 'bench-session';
export const CHAIN_FLOW = { name: 'bench_chain', version: 'v1' } as const;
export const GATED_FLOW = { name: 'bench_gated', version: 'v1' } as const;

const counterInput: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['count'],
  properties: { count: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } },
};

type Count = { count: number };

/** `bench_chain`: N sequential trivial vertices v0 → … → v(N-1), each adding one to `count` (the LangGraph graph). */
export function chainFlow(vertices: number) {
  const ids = Array.from({ length: vertices }, (_, i) => `v${i}`);
  return defineFlow<Count, Count>({
    ...CHAIN_FLOW,
    description: `${vertices} sequential trivial vertices (benchmark).`,
    inputSchema: counterInput,
    graph: {
      start: 'v0',
      vertices: Object.fromEntries(
        ids.map((id, i) => [
          id,
          {
            run: ({ state }: { state: Readonly<Count> }) => Promise.resolve({ count: state.count + 1 }),
            ...(i + 1 < ids.length ? { next: ids[i + 1] as string } : {}),
          },
        ]),
      ),
    },
  });
}

/** A gate the `bench_gated` flow's only vertex waits on, so executions do not compete with the starts being timed. */
export interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** `bench_gated`: one vertex that waits for the gate (or its abort signal) and ends the run. */
export function gatedFlow(g: Gate) {
  return defineFlow<Count, Count>({
    ...GATED_FLOW,
    description: 'One vertex that waits for the benchmark gate (benchmark).',
    inputSchema: counterInput,
    graph: {
      start: 'wait',
      vertices: {
        wait: {
          run: ({ signal }) =>
            Promise.race([
              g.opened,
              new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
            ]),
        },
      },
    },
  });
}

export interface RuntimeOptions {
  /** A SQLite file (with `groupCommit`), or `store`: any other store, not yet opened. */
  readonly path?: string;
  readonly store?: RunStore;
  readonly groupCommit?: boolean;
  readonly flows: readonly FlowSpec<Count, Count>[];
  /** Supervisor execution slots (default 4). */
  readonly concurrency?: number;
  /** false: build the supervisor but do not start it (read-only use, e.g. history). */
  readonly startSupervisor?: boolean;
  /** Supervisor pipelineDepth (default: the supervisor's default). */
  readonly pipelineDepth?: number;
  readonly workerId?: string;
  readonly leaseMs?: number;
}

export interface Runtime {
  readonly store: ObservedStore;
  /** The SQLite store under `store` (its transaction counter: one WAL sync per transaction that wrote), if any. */
  readonly sqlite: SqliteRunStore | undefined;
  readonly supervisor: Supervisor;
  readonly controller: SessionController;
  readonly tools: readonly RunTool[];
  tool(name: RunToolName): RunTool;
  /** Stores the input and creates a pending run (what workflow_run_start does before Supervisor.start). */
  createPending(flow: { name: string; version: string }, input: Count): Promise<RunRecord>;
  /** Resolves when the run's record reaches a terminal status. */
  finished(runId: string): Promise<RunRecord>;
  /** Faults the supervisor reported in the background (should stay 0). */
  readonly faults: () => number;
  close(): Promise<void>;
}

/** Opens a store at `path` and wires catalog, supervisor, session controller and tools. */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const sqlite =
    options.store === undefined
      ? new SqliteRunStore(options.path ?? ':memory:', { groupCommit: options.groupCommit ?? true })
      : undefined;
  const store = new ObservedStore(options.store ?? (sqlite as SqliteRunStore));
  await store.open();
  const catalog = new FlowCatalog();
  for (const flow of options.flows) catalog.register(flow);
  let faults = 0;
  const supervisor = new Supervisor({
    store,
    catalog,
    concurrency: options.concurrency ?? 4,
    ...(options.pipelineDepth === undefined ? {} : { pipelineDepth: options.pipelineDepth }),
    ...(options.workerId === undefined ? {} : { workerId: options.workerId }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    onError: () => {
      faults++;
    },
  });
  if (options.startSupervisor ?? true) await supervisor.start();
  const controller = supervisor.forSession(SESSION);
  const tools = createRunTools({ sessionId: SESSION, catalog, store, supervisor: controller });
  return {
    store,
    sqlite,
    supervisor,
    controller,
    tools,
    tool(name) {
      const found = findRunTool(tools, name);
      if (found === undefined) throw new Error(`run tool ${name} is missing`);
      return found;
    },
    createPending(flow, input) {
      return createPendingRun(store, { sessionId: SESSION, name: flow.name, version: flow.version, input });
    },
    finished(runId) {
      return store.waitForStatus(runId, TERMINAL_STATUSES);
    },
    faults: () => faults,
    async close() {
      await supervisor.stop();
      await store.close();
    },
  };
}
