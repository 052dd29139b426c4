/**
 * Rimthan on PostgreSQL as the comparison runs it: PostgresRunStore (group commit, synchronous_commit on) in its own
 * schema, the bench chain flow, a started Supervisor and the seven run tools, built exactly as a host builds them.
 * Both `runOnce` and `startOnly` start through the real `workflow_run_start` tool call (strict decode → catalog →
 * canonical input → input store → pending record and seed in one durable write), acknowledged at the durable seed;
 * `runOnce` then waits for the durable `completed`.
 */
import { defineFlow, PostgresRunStore, TERMINAL_STATUSES } from '../../src/runs/index.js';
import { RunToolName } from '../../src/tools/index.js';
import { chainFlow, CHAIN_FLOW, openRuntime, type Runtime } from '../suites/runs-runtime.js';
import type { PgEngine } from './engine.js';
import { PG_STEPS } from './engine.js';

export const SLOW_FLOW = { name: 'bench_slow', version: 'v1' } as const;

/** `bench_slow`: five vertices that each wait `stepMs` (the failover part kills a worker in the middle of them). */
export function slowFlow(stepMs: number) {
  const ids = ['s0', 's1', 's2', 's3', 's4'];
  return defineFlow<{ count: number }>({
    ...SLOW_FLOW,
    description: 'five waiting vertices (benchmark)',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['count'],
      properties: { count: { type: 'integer', minimum: 0 } },
    },
    graph: {
      start: 's0',
      vertices: Object.fromEntries(
        ids.map((id, i) => [
          id,
          {
            run: async ({ state }: { state: Readonly<{ count: number }> }) => {
              await new Promise((resolve) => setTimeout(resolve, stepMs));
              return { count: state.count + 1 };
            },
            ...(i + 1 < ids.length ? { next: ids[i + 1] as string } : {}),
          },
        ]),
      ),
    },
  });
}

export interface RimthanPgOptions {
  readonly url: string;
  readonly schema: string;
  /** Supervisor slots (admission control). */
  readonly concurrency: number;
  readonly poolMax: number;
  readonly workerId?: string;
  readonly leaseMs?: number;
  /** Also register `bench_slow` with this vertex pause. */
  readonly slowStepMs?: number;
  /**
   * Other worker processes share the schema: a run started here may be completed by another worker, whose commits
   * this process never sees, so completion is also polled (every 10 ms).
   */
  readonly shared?: boolean;
}

/** Resolves once the run's record is terminal, read from the store. */
async function polled(rt: Runtime, runId: string): Promise<void> {
  for (;;) {
    const record = await rt.store.getRunById(runId);
    if (record !== undefined && TERMINAL_STATUSES.has(record.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Opens the store (creating the schema) and starts a supervisor on it. */
export async function openRimthanPg(
  o: RimthanPgOptions,
): Promise<PgEngine & { readonly runtime: Runtime; startSlow(count: number): Promise<string[]> }> {
  const store = new PostgresRunStore({ connectionString: o.url, schema: o.schema, pool: { max: o.poolMax } });
  const rt = await openRuntime({
    store,
    flows: o.slowStepMs === undefined ? [chainFlow(PG_STEPS)] : [chainFlow(PG_STEPS), slowFlow(o.slowStepMs)],
    concurrency: o.concurrency,
    ...(o.workerId === undefined ? {} : { workerId: o.workerId }),
    ...(o.leaseMs === undefined ? {} : { leaseMs: o.leaseMs }),
  });
  let seq = Math.floor(Math.random() * 1e9);
  const inFlight = new Set<string>();
  const start = rt.tool(RunToolName.RunStart);
  /** The real workflow_run_start call; resolves with the run id at the durable seed acknowledgement. */
  const startTool = async (): Promise<string> => {
    const result = await start.invoke(
      `{"definition_name":"${CHAIN_FLOW.name}","definition_version":"${CHAIN_FLOW.version}","input":{"count":${++seq % 1e9}}}`,
    );
    const runId = result.ok ? result.value['run_id'] : undefined;
    if (!result.ok || result.value['checkpoint_revision'] !== 0 || typeof runId !== 'string') {
      throw new Error('start was not acknowledged');
    }
    return runId;
  };
  return {
    name: 'Rimthan',
    runtime: rt,
    async runOnce() {
      const runId = await startTool();
      if (o.shared === true) {
        await Promise.race([rt.finished(runId), polled(rt, runId)]);
        const done = await rt.store.getRunById(runId);
        if (done?.status !== 'completed') throw new Error(`Rimthan run ended ${String(done?.status)}`);
        return;
      }
      const done = await rt.finished(runId);
      if (done.status !== 'completed') throw new Error(`Rimthan run ended ${done.status}`);
    },
    async startOnly() {
      const runId = await startTool();
      inFlight.add(runId);
      void rt.store.waitForStatus(runId, TERMINAL_STATUSES).then(() => inFlight.delete(runId));
    },
    async drain() {
      while (inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async startSlow(count) {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const pending = await rt.createPending(SLOW_FLOW, { count: 0 });
        await rt.controller.start(pending.run_id);
        ids.push(pending.run_id);
      }
      return ids;
    },
    close: () => rt.close(),
  };
}
