/**
 * A regress contender process: drives one build of Rimthan (this one, or an earlier revision built by
 * baselines/previous-build.ts) through that build's own public modules, loaded from argv[2]'s `root` (a `dist`
 * folder), so both builds run exactly the same driver code. It speaks the contender protocol (postgres/contender.ts):
 * `sequential` (one 10-vertex chain at a time, ms per step, and on SQLite the synced transactions per workflow),
 * `closed` (clients each starting a run and awaiting its completion), `starts` (open-loop durable start
 * acknowledgements, executions drained afterwards) and `close`. Runs start through the real workflow_run_start tool.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonObject } from '../../src/core/json.js';
import type * as RunsModule from '../../src/runs/index.js';
import type * as ToolsModule from '../../src/tools/index.js';
import { clientsWindow, nowNs } from '../harness.js';
import { serveContender, type ContenderOp, type ContenderReply } from '../postgres/contender.js';

type Runs = typeof RunsModule;
type Tools = typeof ToolsModule;
type Store = InstanceType<Runs['SqliteRunStore']> | InstanceType<Runs['PostgresRunStore']>;

export interface DriverConfig {
  /** The build's `dist` folder (holding src/runs/index.js and src/tools/index.js). */
  readonly root: string;
  readonly store:
    | { readonly kind: 'sqlite'; readonly path: string }
    | { readonly kind: 'postgres'; readonly url: string; readonly schema: string };
  /** PostgreSQL pool size. */
  readonly poolMax: number;
  /** Supervisor slots; undefined: the build's own default. */
  readonly concurrency?: number;
}

export const STEPS = 10;
const SESSION = 'bench-regress';
const FLOW = 'bench_chain';

async function load<T>(root: string, path: string): Promise<T> {
  return (await import(pathToFileURL(join(root, path)).href)) as T;
}

function chain(runs: Runs) {
  const ids = Array.from({ length: STEPS }, (_, i) => `v${i}`);
  return runs.defineFlow<{ count: number }>({
    name: FLOW,
    version: 'v1',
    description: `${STEPS} sequential trivial vertices (benchmark)`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 } },
    },
    graph: {
      start: 'v0',
      vertices: Object.fromEntries(
        ids.map((id, i) => [
          id,
          {
            run: ({ state }: { state: Readonly<{ count: number }> }) => Promise.resolve({ count: state.count + 1 }),
            ...(i + 1 < ids.length ? { next: ids[i + 1] as string } : {}),
          },
        ]),
      ),
    },
  });
}

async function open(config: DriverConfig) {
  const runs = await load<Runs>(config.root, 'src/runs/index.js');
  const tools = await load<Tools>(config.root, 'src/tools/index.js');
  const inner: Store =
    config.store.kind === 'sqlite'
      ? new runs.SqliteRunStore(config.store.path)
      : new runs.PostgresRunStore({
          connectionString: config.store.url,
          schema: config.store.schema,
          pool: { max: config.poolMax },
        });
  // Completion is seen in the records `commit` answers (no polling); every other method passes through.
  const waiters = new Map<string, (status: string) => void>();
  /** Runs that ended before their start call returned (rare): their status, until awaited. */
  const early = new Map<string, string>();
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (prop !== 'commit') return bound;
      return async (...args: unknown[]) => {
        const record = (await bound(...args)) as { run_id: string; status: string };
        if (runs.TERMINAL_STATUSES.has(record.status as never)) {
          const waiter = waiters.get(record.run_id);
          waiters.delete(record.run_id);
          if (waiter === undefined) early.set(record.run_id, record.status);
          else waiter(record.status);
        }
        return record;
      };
    },
  });
  await store.open();
  const catalog = new runs.FlowCatalog();
  catalog.register(chain(runs));
  const supervisor = new runs.Supervisor({
    store,
    catalog,
    concurrency: config.concurrency ?? runs.SUPERVISOR_DEFAULTS.concurrency,
  });
  await supervisor.start();
  const controller = supervisor.forSession(SESSION);
  const all = tools.createRunTools({ sessionId: SESSION, catalog, store, supervisor: controller });
  const startTool = tools.findRunTool(all, tools.RunToolName.RunStart);
  if (startTool === undefined) throw new Error('workflow_run_start is missing');
  let seq = Math.floor(Math.random() * 1e8);
  const inFlight = new Set<Promise<string>>();
  /** Starts a run; resolves at the durable acknowledgement with a promise of its terminal status. */
  const start = async (): Promise<{ done: Promise<string> }> => {
    const input: JsonObject = { count: ++seq };
    const result = await startTool.invoke(JSON.stringify({ definition_name: FLOW, definition_version: 'v1', input }));
    const runId = result.ok ? result.value['run_id'] : undefined;
    if (typeof runId !== 'string') throw new Error('start was not acknowledged');
    const ended = early.get(runId);
    if (ended !== undefined) {
      early.delete(runId);
      return { done: Promise.resolve(ended) };
    }
    return { done: new Promise<string>((resolve) => waiters.set(runId, resolve)) };
  };
  const runOnce = async (): Promise<void> => {
    const status = await (await start()).done;
    if (status !== 'completed') throw new Error(`regress run ended ${status}`);
  };
  const transactions = (): number => ('transactions' in inner ? inner.transactions : 0);
  return {
    async handle(op: ContenderOp): Promise<ContenderReply> {
      switch (op.op) {
        case 'sequential': {
          const msPerStep: number[] = [];
          const tx0 = transactions();
          for (let i = 0; i < op.runs; i++) {
            const begin = nowNs();
            await runOnce();
            msPerStep.push(Number(nowNs() - begin) / 1e6 / STEPS);
          }
          return { ok: true, msPerStep, transactionsPerRun: (transactions() - tx0) / Math.max(op.runs, 1) };
        }
        case 'closed': {
          const w = await clientsWindow(op.clients, op.ms, runOnce);
          return { ok: true, perSecond: w.count / w.seconds, count: w.count };
        }
        case 'starts': {
          const w = await clientsWindow(op.clients, op.ms, async () => {
            const { done } = await start();
            inFlight.add(done);
            void done.then(() => inFlight.delete(done));
          });
          while (inFlight.size > 0) await Promise.all([...inFlight]);
          return { ok: true, perSecond: w.count / w.seconds, count: w.count };
        }
        case 'startSlow':
          throw new Error('regress contenders have no slow flow');
        case 'close':
          await supervisor.stop();
          await store.close();
          return { ok: true };
      }
    },
  };
}

serveContender<DriverConfig, Awaited<ReturnType<typeof open>>>('regress driver', open, (driver, op) =>
  driver.handle(op),
);
