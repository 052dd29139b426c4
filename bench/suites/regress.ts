/**
 * The regress suite (issue 22: "nothing of today's figures regresses by more than 10%"): this build against an earlier
 * revision of this repository, built in the same run (baselines/previous-build.ts, cached per commit under
 * os.tmpdir()), both driven by the same driver code (regress/driver.ts) in their own processes, in interleaved rounds.
 * Figures: sequential ms per step and synced transactions (WAL fsyncs) per workflow on SQLite; start
 * acknowledgements/s with 64 starters on SQLite and PostgreSQL; completed workflows/s with 64 clients and WAL flushes
 * per workflow on PostgreSQL. Each is printed as the ratio current ÷ previous; Met = within 10% (a time or a count at
 * most 1.1×, a rate at least 0.9× the previous build's).
 */
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cachedBuild } from '../baselines/previous-build.js';
import { fmt } from '../format.js';
import { median, medianRatio, quantile, rounds } from '../harness.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { spawnIpc, type Contender } from '../postgres/contender.js';
import { BENCH_DATABASE } from '../postgres/engine.js';
import { benchDatabase, dropBenchSchemas, pgUrl } from '../postgres/server.js';
import { perWorkflow, type Counters } from '../postgres/wal.js';
import type { DriverConfig } from '../regress/driver.js';
import { withTempFolder, type TempFolder } from '../tmp.js';

/**
 * The default previous build: the parent of a5ff2e3 ("Parallel branches, joins, forEach fan-out and error routes in
 * flows"), the first commit of the issue-22 flow work. `--baseline=REV` picks another.
 */
export const DEFAULT_REGRESS_REVISION = 'ba9560f';

const CLIENTS = 64;
const DRIVER = fileURLToPath(new URL('../regress/driver.js', import.meta.url));
/** This build's `dist` folder (this file is dist/bench/suites/regress.js). */
const CURRENT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Builds {
  readonly previous: string;
  /** The previous build's `dist` folder. */
  readonly previousRoot: string;
}

type Pair = Record<'cur' | 'prev', Contender>;

function spawnDriver(config: DriverConfig, label: string): Promise<Contender> {
  return spawnIpc(DRIVER, JSON.stringify(config), label);
}

async function openPair(make: (root: string, who: 'cur' | 'prev') => DriverConfig, b: Builds): Promise<Pair> {
  const cur = await spawnDriver(make(CURRENT_ROOT, 'cur'), 'current build');
  try {
    return { cur, prev: await spawnDriver(make(b.previousRoot, 'prev'), `build ${b.previous}`) };
  } catch (error) {
    await cur.close();
    throw error;
  }
}

async function closePair(p: Pair): Promise<void> {
  await p.cur.close();
  await p.prev.close();
}

const spread = (xs: readonly number[]): string => `${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))}`;

/** A figure current ÷ previous; `better` says which way is an improvement (a regression is 10% the other way). */
function regressFigure(
  b: Builds,
  name: string,
  unit: string,
  cur: readonly number[],
  prev: readonly number[],
  better: 'lower' | 'higher',
  note: string,
): Figure {
  const ratio = cur.length === 1 ? (cur[0] as number) / (prev[0] as number) : medianRatio(cur, prev);
  const met = better === 'lower' ? ratio <= 1.1 : ratio >= 0.9;
  return {
    name,
    rimthan: { value: median(cur), unit },
    baseline: { label: `previous build ${b.previous}`, quantity: { value: median(prev), unit } },
    ratio: { value: ratio, text: `${fmt(ratio)}× previous` },
    aim: { text: better === 'lower' ? '≤ 1.1× previous' : '≥ 0.9× previous', met },
    note,
  };
}

/** Windows of `op` (closed or starts) for both builds, interleaved; per-window rates. */
async function rateRounds(ctx: SuiteContext, label: string, p: Pair, op: 'closed' | 'starts') {
  const ms = ctx.long ? 3000 : 1000;
  const count = ctx.long ? 5 : 3;
  for (const who of [p.cur, p.prev]) await who.call({ op, clients: CLIENTS, ms: 300 }); // warm-up
  ctx.progress(`regress/${label}: ${count} rounds × ${fmt(ms / 1000)} s windows, ${CLIENTS} clients per build`);
  const once = (who: Contender) => async () => (await who.call({ op, clients: CLIENTS, ms })).perSecond ?? 0;
  return rounds({ cur: once(p.cur), prev: once(p.prev) }, count, (i) =>
    ctx.progress(`regress/${label}: round ${i + 1}/${count}`),
  );
}

/** SQLite: sequential ms/step, synced transactions per workflow, start acks/s. */
async function sqlitePart(ctx: SuiteContext, folder: TempFolder, b: Builds, parts: Wanted): Promise<Figure[]> {
  const p = await openPair(
    (root, who) => ({ root, store: { kind: 'sqlite', path: folder.file(`regress-${who}.db`) }, poolMax: 1 }),
    b,
  );
  const figures: Figure[] = [];
  try {
    if (parts('steps')) {
      for (const who of [p.cur, p.prev]) await who.call({ op: 'sequential', runs: 5 });
      const runs = ctx.long ? 10 : 5;
      const count = ctx.long ? 9 : 5;
      const tx: Record<'cur' | 'prev', number[]> = { cur: [], prev: [] };
      const once = (name: 'cur' | 'prev') => async (): Promise<number> => {
        await p[name].call({ op: 'sequential', runs: 1 }); // untimed: absorbs what the other build left behind
        const reply = await p[name].call({ op: 'sequential', runs });
        tx[name].push(reply.transactionsPerRun ?? 0);
        return median(reply.msPerStep ?? []);
      };
      ctx.progress(`regress/steps: ${count} rounds × ${runs} sequential workflows per build`);
      const r = await rounds({ cur: once('cur'), prev: once('prev') }, count, (i) =>
        ctx.progress(`regress/steps: round ${i + 1}/${count}`),
      );
      figures.push(
        regressFigure(
          b,
          'sequential time per step, 10-step chain, one run at a time (SQLite)',
          'ms/step',
          r.cur,
          r.prev,
          'lower',
          `per-round p10–p90 current ${spread(r.cur)}, previous ${spread(r.prev)} ms`,
        ),
        regressFigure(
          b,
          'WAL fsyncs per workflow: synced store transactions (SQLite, synchronous=FULL)',
          'fsyncs/workflow',
          [median(tx.cur)],
          [median(tx.prev)],
          'lower',
          'SqliteRunStore.transactions over the timed sequential workflows',
        ),
      );
    }
    if (parts('starts')) {
      const r = await rateRounds(ctx, 'starts-sqlite', p, 'starts');
      figures.push(
        regressFigure(
          b,
          `start acknowledgements/s, ${CLIENTS} concurrent starters (SQLite)`,
          'acks/s',
          r.cur,
          r.prev,
          'higher',
          `per-window current ${spread(r.cur)}, previous ${spread(r.prev)}; executions run meanwhile and are drained`,
        ),
      );
    }
  } finally {
    await closePair(p);
  }
  return figures;
}

/** PostgreSQL: 64-client completed workflows/s, start acks/s, WAL flushes per workflow. */
async function postgresPart(ctx: SuiteContext, b: Builds, parts: Wanted, notes: string[]): Promise<Figure[]> {
  const db = await benchDatabase();
  if ('skipped' in db) {
    notes.push(`PostgreSQL figures skipped: ${db.skipped}`);
    return [];
  }
  const tag = randomBytes(4).toString('hex');
  const schema = (who: 'cur' | 'prev'): string => `bench_regress_${who}_${tag}`;
  const config = (root: string, who: 'cur' | 'prev'): DriverConfig => ({
    root,
    store: { kind: 'postgres', url: db.url, schema: schema(who) },
    poolMax: 8,
  });
  const figures: Figure[] = [];
  try {
    if (parts('closed') || parts('starts')) {
      const p = await openPair(config, b);
      try {
        if (parts('closed')) {
          const r = await rateRounds(ctx, 'closed', p, 'closed');
          figures.push(
            regressFigure(
              b,
              `completed workflows/s, ${CLIENTS} concurrent clients, closed loop (PostgreSQL)`,
              'workflows/s',
              r.cur,
              r.prev,
              'higher',
              `per-window current ${spread(r.cur)}, previous ${spread(r.prev)}`,
            ),
          );
        }
        if (parts('starts')) {
          const r = await rateRounds(ctx, 'starts-pg', p, 'starts');
          figures.push(
            regressFigure(
              b,
              `start acknowledgements/s, ${CLIENTS} concurrent starters (PostgreSQL)`,
              'acks/s',
              r.cur,
              r.prev,
              'higher',
              `per-window current ${spread(r.cur)}, previous ${spread(r.prev)}; executions drained after each window`,
            ),
          );
        }
      } finally {
        await closePair(p);
      }
    }
    if (parts('wal')) {
      const runs = ctx.long ? 100 : 40;
      ctx.progress(`regress/wal: WAL flushes per workflow, ${runs} workflows, one fresh process per build`);
      const admin = new pg.Client({ connectionString: pgUrl('postgres') });
      await admin.connect();
      try {
        // Interleaved rounds, each a fresh process per build (idle process subtracted): the server-wide WAL counter
        // also counts other clients of the server, so the median of several rounds is the figure.
        const count = ctx.long ? 5 : 3;
        const cur = (): Promise<Counters> =>
          perWorkflow(admin, BENCH_DATABASE, () => spawnDriver(config(CURRENT_ROOT, 'cur'), 'current build'), runs);
        const prev = (): Promise<Counters> =>
          perWorkflow(
            admin,
            BENCH_DATABASE,
            () => spawnDriver(config(b.previousRoot, 'prev'), `build ${b.previous}`),
            runs,
          );
        const seen: Record<'cur' | 'prev', Counters[]> = { cur: [], prev: [] };
        const keep = async (who: 'cur' | 'prev', measured: Promise<Counters>): Promise<number> => {
          const c = await measured;
          seen[who].push(c);
          return c.walSync;
        };
        const r = await rounds(
          {
            cur: () => keep('cur', cur()),
            prev: () => keep('prev', prev()),
          },
          count,
          (i) => ctx.progress(`regress/wal: round ${i + 1}/${count}`),
        );
        const xact = (who: 'cur' | 'prev'): number => median(seen[who].map((c) => c.xact));
        figures.push(
          regressFigure(
            b,
            `WAL flushes per workflow (pg_stat_wal.wal_sync; ${runs} workflows one at a time, PostgreSQL)`,
            'flushes/workflow',
            [median(r.cur)],
            [median(r.prev)],
            'lower',
            `median of ${count} rounds; per-round current ${spread(r.cur)}, previous ${spread(r.prev)}; a server-wide counter: other clients of the server add to it`,
          ),
          regressFigure(
            b,
            '… committed transactions per workflow in the bench database (PostgreSQL)',
            'transactions/workflow',
            [xact('cur')],
            [xact('prev')],
            'lower',
            'pg_stat_database.xact_commit of the bench database (ours alone), reads included',
          ),
        );
      } finally {
        await admin.end();
      }
    }
  } finally {
    await dropBenchSchemas([schema('cur'), schema('prev')]);
  }
  return figures;
}

type Wanted = (part: string) => boolean;

export const suite: Suite = {
  name: 'regress',
  description: 'this build vs an earlier revision: ms/step, throughput, start acks/s, WAL flushes (within 10%)',
  async run(ctx: SuiteContext) {
    const revision = ctx.baseline ?? DEFAULT_REGRESS_REVISION;
    ctx.progress(`regress: building ${revision} (src only; cached per commit under the temp folder)`);
    let previous: string;
    let previousRoot: string;
    try {
      const build = cachedBuild(revision);
      previous = build.revision;
      previousRoot = dirname(dirname(dirname(build.main)));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return { figures: [], notes: [], skipped: `could not build ${revision}: ${reason}` };
    }
    const b: Builds = { previous, previousRoot };
    const wanted: Wanted = (part) => ctx.parts === undefined || ctx.parts.has(part);
    const notes: string[] = [
      `Previous build: ${previous} (${revision === DEFAULT_REGRESS_REVISION ? 'the default: the last commit before the issue-22 flow work' : '--baseline'}), built from git archive with this checkout's node_modules.`,
      'Both builds run the same driver (bench/regress/driver.ts) in their own processes, loading each build’s own src/runs and src/tools; runs start through workflow_run_start; rounds interleave the builds.',
    ];
    const figures = await withTempFolder('regress', async (folder) => {
      const out: Figure[] = [];
      if (wanted('steps') || wanted('starts')) out.push(...(await sqlitePart(ctx, folder, b, wanted)));
      if (wanted('closed') || wanted('starts') || wanted('wal'))
        out.push(...(await postgresPart(ctx, b, wanted, notes)));
      return out;
    });
    return { figures, notes };
  },
};
