/**
 * Flows suite, parts `fanout` (SQLite) and `fanout-pg` (PostgreSQL): an 8-way fan-out and join of trivial vertices
 * (fork → eight parallel branches → join), one run at a time, time per completed vertex (start call to the durable
 * completion ÷ 10), against LangGraph's parallel branches (the same graph as a StateGraph) at equal durability:
 * SqliteSaver on a file set to synchronous=FULL, or PostgresSaver on the same server, both with durability "sync".
 * Interleaved rounds (the order rotates), each round a median of a few runs after one untimed run.
 */
import { randomBytes } from 'node:crypto';
import {
  FlowCatalog,
  PostgresRunStore,
  SqliteRunStore,
  Supervisor,
  TERMINAL_STATUSES,
  type RunStore,
} from '../../src/runs/index.js';
import {
  FANOUT_BRANCHES,
  FANOUT_SUM,
  FANOUT_VERTICES,
  langGraphFanoutPostgres,
  langGraphFanoutSqlite,
  type LangGraphFanout,
} from '../baselines/langgraph-fanout.js';
import { fmt, lowerText } from '../format.js';
import { median, medianRatio, nowNs, quantile, rounds } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import { benchDatabase, dropBenchSchemas } from '../postgres/server.js';
import type { TempFolder } from '../tmp.js';
import { fanoutFlow } from './flows-flows.js';
import { starter } from './flows-start.js';
import { ObservedStore } from './observed-store.js';

const SESSION = 'bench-fanout';

interface Contender {
  /** One whole run; resolves with ms per completed vertex. */
  once(): Promise<number>;
  close(): Promise<void>;
}

/** Rimthan on `inner` (not yet opened): a supervisor with the fan-out flow, runs started as a host starts them. */
async function rimthan(inner: RunStore): Promise<Contender> {
  const store = new ObservedStore(inner);
  await store.open();
  const catalog = new FlowCatalog();
  catalog.register(fanoutFlow(FANOUT_BRANCHES) as never);
  const supervisor = new Supervisor({ store, catalog, concurrency: 4, leaseMs: 30_000 });
  await supervisor.start();
  const start = starter(supervisor, SESSION);
  let seq = 0;
  return {
    async once() {
      const begin = nowNs();
      // A fresh input each run: the input store keeps one copy per digest.
      const runId = await start('bench_fanout', { count: ++seq });
      const done = await store.waitForStatus(runId, TERMINAL_STATUSES);
      const ms = Number(nowNs() - begin) / 1e6;
      if (done.status !== 'completed') throw new Error(`flows bench: fan-out run ended ${done.status}`);
      const cp = await store.latestCheckpoint(runId);
      const state = cp?.state['flow_state'] as { sum?: number; count?: number } | undefined;
      const expected = FANOUT_BRANCHES * (seq + 1) + (FANOUT_BRANCHES * (FANOUT_BRANCHES - 1)) / 2;
      if (state?.sum !== expected) throw new Error(`flows bench: fan-out joined ${String(state?.sum)}`);
      return ms / FANOUT_VERTICES;
    },
    async close() {
      await supervisor.stop();
      await store.close();
    },
  };
}

function langGraph(lg: LangGraphFanout): Contender {
  let thread = 0;
  return {
    async once() {
      const begin = nowNs();
      const sum = await lg.runOnce(`fan-${process.pid}-${++thread}`);
      const ms = Number(nowNs() - begin) / 1e6;
      if (sum !== FANOUT_SUM) throw new Error(`LangGraph fan-out joined ${sum}`);
      return ms / FANOUT_VERTICES;
    },
    close: () => lg.close(),
  };
}

/** One round's figure of a contender: one untimed run, then the median of `runs` timed ones. */
function batch(c: Contender, runs: number): () => Promise<number> {
  return async () => {
    await c.once();
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push(await c.once());
    return median(xs);
  };
}

async function compareFanout(
  ctx: SuiteContext,
  label: string,
  rim: Contender,
  lg: Contender,
): Promise<{ rim: number[]; lg: number[] }> {
  for (let i = 0; i < 5; i++) {
    await rim.once();
    await lg.once();
  }
  const runs = ctx.long ? 10 : 5;
  const count = ctx.long ? 11 : 5;
  ctx.progress(`flows/${label}: ${count} rounds × ${runs} fan-out runs per engine`);
  return rounds({ rim: batch(rim, runs), lg: batch(lg, runs) }, count, (i) =>
    ctx.progress(`flows/${label}: round ${i + 1}/${count}`),
  );
}

const spread = (xs: readonly number[]): string => `${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))} ms`;

function figure(store: string, baseline: string, r: { rim: number[]; lg: number[] }, note: string): Figure {
  const ratio = medianRatio(r.lg, r.rim);
  return {
    name: `time per completed vertex, ${FANOUT_BRANCHES}-way fan-out and join of trivial vertices (${store})`,
    rimthan: { value: median(r.rim), unit: 'ms/vertex' },
    baseline: { label: baseline, quantity: { value: median(r.lg), unit: 'ms/vertex' } },
    ratio: { value: ratio, text: lowerText(ratio) },
    aim: { text: 'Rimthan ≤ LangGraph ÷ 3', met: ratio >= 3 },
    note: `${note}; per-round p10–p90 Rimthan ${spread(r.rim)}, LangGraph ${spread(r.lg)}; ${FANOUT_VERTICES} vertices per run`,
  };
}

/** Part `fanout`: SQLite files, Rimthan's store (WAL, synchronous=FULL, group commit) against SqliteSaver at FULL. */
export async function fanoutPart(ctx: SuiteContext, folder: TempFolder): Promise<Figure[]> {
  const rim = await rimthan(new SqliteRunStore(folder.file('fanout-rimthan.db')));
  const saver = langGraphFanoutSqlite(folder.file('fanout-langgraph.db'));
  const lg = langGraph(saver);
  try {
    await lg.once(); // the saver sets WAL up lazily; then force FULL
    if (saver.setFull() !== 2) throw new Error('could not set the LangGraph saver to synchronous=FULL');
    const r = await compareFanout(ctx, 'fanout', rim, lg);
    return [
      figure(
        'SQLite',
        'LangGraph parallel branches, SqliteSaver, durability "sync", synchronous=FULL',
        r,
        'both WAL with synchronous=FULL; one run at a time',
      ),
    ];
  } finally {
    await lg.close();
    await rim.close();
  }
}

/** Part `fanout-pg`: Rimthan's PostgresRunStore against PostgresSaver, each in a fresh schema of the bench database. */
export async function fanoutPgPart(ctx: SuiteContext): Promise<{ figures: Figure[]; notes: string[] }> {
  const db = await benchDatabase();
  if ('skipped' in db) return { figures: [], notes: [`fanout-pg skipped: ${db.skipped}`] };
  const tag = randomBytes(4).toString('hex');
  const schemas = [`bench_fanout_rimthan_${tag}`, `bench_fanout_langgraph_${tag}`];
  try {
    const rim = await rimthan(
      new PostgresRunStore({ connectionString: db.url, schema: schemas[0] as string, pool: { max: 8 } }),
    );
    let lg: Contender | undefined;
    try {
      lg = langGraph(await langGraphFanoutPostgres(db.url, schemas[1] as string));
      const r = await compareFanout(ctx, 'fanout-pg', rim, lg);
      return {
        figures: [
          figure(
            'PostgreSQL',
            'LangGraph parallel branches, PostgresSaver, durability "sync", same server',
            r,
            'synchronous_commit=on for both; one run at a time, both in the bench process',
          ),
        ],
        notes: [],
      };
    } finally {
      await lg?.close();
      await rim.close();
    }
  } finally {
    await dropBenchSchemas(schemas);
  }
}
