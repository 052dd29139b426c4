/**
 * The flows suite (issue 22): an 8-way fan-out and join against LangGraph's parallel branches on SQLite and PostgreSQL
 * (flows-fanout.ts); durable waits on SQLite. (a) RSS growth with 10,000 runs parked in a one-hour sleep on one
 * worker, against 10,000 one-hour setTimeout closures held in memory; (b) p99 wake-up lateness of 100 timers due in the
 * same second, against 100 plain setTimeout timers due then; (c) a child run round trip (the parent starts a one-vertex
 * child, the child completes, the parent resumes and completes) against one run of the same two vertices.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FlowCatalog, SqliteRunStore, Supervisor, type RunStatus } from '../../src/runs/index.js';
import { fmt } from '../format.js';
import { median, nowNs, quantile } from '../harness.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { withTempFolder, type TempFolder } from '../tmp.js';
import { ObservedStore } from './observed-store.js';
import { fanoutPart, fanoutPgPart } from './flows-fanout.js';
import { starter, until } from './flows-start.js';
import { alarmFlow, childFlow, inlineFlow, parentFlow, sleeperFlow } from './flows-flows.js';

const SESSION = 'bench-flows';
const MB = 1024 * 1024;
const HOUR = 3_600_000;

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 200));
}

/** V8's collector, reached without a command-line flag, so the figures are taken after a full collection. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function memoryAfterSettling(gc: () => void): Promise<{ rss: number; heap: number }> {
  gc();
  await settle();
  gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

/** Part (a): RSS growth of `count` sleeping runs, and of `count` in-memory timers (measured first). */
async function sleepingPart(ctx: SuiteContext, folder: TempFolder): Promise<Figure[]> {
  const count = 10_000;
  const gc = collector();
  const beforeTimers = await memoryAfterSettling(gc);
  const timers = Array.from({ length: count }, (_, i) => {
    const state = { run: randomUUID(), input: { ms: HOUR, i } };
    return setTimeout(() => state.input.i++, HOUR);
  });
  const withTimers = await memoryAfterSettling(gc);
  for (const t of timers) clearTimeout(t);
  const timerGrowth = withTimers.rss - beforeTimers.rss;
  let passes = 0;
  const store = new SqliteRunStore(folder.file('sleeping.db'));
  await store.open();
  const catalog = new FlowCatalog();
  catalog.register(sleeperFlow(() => passes++));
  const supervisor = new Supervisor({ store, catalog, concurrency: 64, leaseMs: 30_000 });
  await supervisor.start();
  let growth: number;
  let heapGrowth: number;
  try {
    const start = starter(supervisor, SESSION);
    // Warm-up (statements, JIT, SQLite's page cache), then the measured runs.
    for (let i = 0; i < 1000; i++) await start('bench_sleeper', { ms: HOUR });
    await until(() => passes >= 1000 && supervisor.activeRuns === 0, 'the warm-up runs parking');
    const before = await memoryAfterSettling(gc);
    for (let done = 0; done < count;) {
      const batch = Math.min(64, count - done);
      await Promise.all(Array.from({ length: batch }, () => start('bench_sleeper', { ms: HOUR })));
      done += batch;
      if (done % 2000 === 0) ctx.progress(`flows: ${done}/${count} sleeping runs started`);
    }
    await until(() => passes >= count + 1000 && supervisor.activeRuns === 0, 'every run parking');
    const after = await memoryAfterSettling(gc);
    growth = after.rss - before.rss;
    heapGrowth = after.heap - before.heap;
  } finally {
    await supervisor.stop();
    await store.close();
  }
  // RSS moves by whole pages and the collector may return memory, so the timers' growth can be tiny or negative: a
  // ratio is only meaningful against at least a megabyte; below that the difference is what tells.
  const ratio = timerGrowth >= MB ? growth / timerGrowth : undefined;
  return [
    {
      name: `RSS growth, ${fmt(count)} runs sleeping an hour on one worker (SQLite)`,
      rimthan: { value: growth / MB, unit: 'MB' },
      baseline: {
        label: `${fmt(count)} one-hour setTimeout closures in memory`,
        quantity: { value: timerGrowth / MB, unit: 'MB' },
      },
      ratio:
        ratio === undefined
          ? { value: (growth - timerGrowth) / MB, text: `+${fmt((growth - timerGrowth) / MB)} MB over the timers` }
          : { value: ratio, text: `${fmt(ratio)}× the timers'` },
      aim: { text: '≤ 64 MB', met: growth <= 64 * MB },
      note: `RSS after the runs parked minus before, after a full GC (1,000 warm-up runs first); JS heap ${fmt(heapGrowth / MB)} MB of it`,
    },
  ];
}

/** Part (b): lateness of `count` timers due in the same second. */
async function latenessPart(ctx: SuiteContext, folder: TempFolder): Promise<Figure[]> {
  const count = 100;
  const rounds = ctx.long ? 5 : 2;
  const late: number[] = [];
  let passes = 0;
  const alarm = alarmFlow(
    (ms) => late.push(ms),
    () => passes++,
  );
  const store = new SqliteRunStore(folder.file('lateness.db'));
  await store.open();
  const catalog = new FlowCatalog();
  catalog.register(alarm.flow);
  const supervisor = new Supervisor({ store, catalog, concurrency: 128, leaseMs: 30_000 });
  await supervisor.start();
  const baseline: number[] = [];
  try {
    const start = starter(supervisor, SESSION);
    for (let r = 0; r < rounds; r++) {
      passes = 0;
      alarm.reset();
      const at = Math.ceil((Date.now() + 2000) / 1000) * 1000;
      await Promise.all(Array.from({ length: count }, () => start('bench_alarm', { at })));
      await until(() => passes >= count && supervisor.activeRuns === 0, 'the timers parking');
      const woke = late.length;
      await until(() => late.length >= woke + count, 'the timers waking');
      await until(() => supervisor.activeRuns === 0, 'the woken runs completing');
      // Baseline: the same instant, plain timers in this process.
      const due = Math.ceil((Date.now() + 1000) / 1000) * 1000;
      await new Promise<void>((resolve) => {
        let left = count;
        for (let i = 0; i < count; i++) {
          setTimeout(() => {
            baseline.push(Date.now() - due);
            if (--left === 0) resolve();
          }, due - Date.now());
        }
      });
      ctx.progress(`flows: lateness round ${r + 1}/${rounds}`);
    }
  } finally {
    await supervisor.stop();
    await store.close();
  }
  const p99 = quantile(late, 0.99);
  const base = quantile(baseline, 0.99);
  return [
    {
      name: `p99 wake-up lateness, ${count} timers due in the same second (SQLite)`,
      rimthan: { value: p99, unit: 'ms' },
      baseline: { label: `${count} plain setTimeout timers due at one instant`, quantity: { value: base, unit: 'ms' } },
      ratio: { value: p99 - base, text: `+${fmt(p99 - base)} ms` },
      aim: { text: '≤ 50 ms', met: p99 <= 50 },
      note: `${late.length} wake-ups over ${rounds} rounds; median ${fmt(median(late))} ms; lateness = when the vertex goes on after its sleep`,
    },
  ];
}

/** Part (c): a child run round trip against one run of the same two vertices. */
async function childPart(ctx: SuiteContext, folder: TempFolder): Promise<Figure[]> {
  const n = ctx.long ? 500 : 150;
  const store = new ObservedStore(new SqliteRunStore(folder.file('child.db')));
  await store.open();
  const catalog = new FlowCatalog();
  for (const flow of [childFlow, parentFlow, inlineFlow]) catalog.register(flow as never);
  const supervisor = new Supervisor({ store, catalog, concurrency: 8, leaseMs: 30_000 });
  await supervisor.start();
  const done: ReadonlySet<RunStatus> = new Set<RunStatus>(['completed', 'failed', 'interrupted', 'cancelled']);
  const times: Record<'child' | 'inline', number[]> = { child: [], inline: [] };
  try {
    const start = starter(supervisor, SESSION);
    const once = async (name: string): Promise<number> => {
      const begin = nowNs();
      const runId = await start(name, { n: 1 });
      const end = await store.waitForStatus(runId, done);
      if (end.status !== 'completed') throw new Error(`flows bench: ${name} ended ${end.status}`);
      return Number(nowNs() - begin) / 1e6;
    };
    for (let i = 0; i < 20; i++) {
      await once('bench_parent');
      await once('bench_inline');
    }
    for (let i = 0; i < n; i++) {
      times.child.push(await once('bench_parent'));
      times.inline.push(await once('bench_inline'));
    }
  } finally {
    await supervisor.stop();
    await store.close();
  }
  const child = median(times.child);
  const inline = median(times.inline);
  const ratio = child / inline;
  return [
    {
      name: 'child run round trip: start, child completes, parent resumes and completes (SQLite)',
      rimthan: { value: child, unit: 'ms' },
      baseline: { label: 'one run of the same two vertices', quantity: { value: inline, unit: 'ms' } },
      ratio: { value: ratio, text: `${fmt(ratio)}×` },
      aim: { text: '≤ 3×', met: ratio <= 3 },
      note: `median of ${n} sequential round trips each, interleaved; start to the durable completion`,
    },
  ];
}

export const suite: Suite = {
  name: 'flows',
  description:
    '8-way fan-out vs LangGraph (SQLite, PostgreSQL), sleeping runs RSS, wake-up lateness, child run round trip',
  async run(ctx: SuiteContext) {
    return withTempFolder('flows', async (folder) => {
      const figures: Figure[] = [];
      const notes: string[] = [];
      const parts: [string, () => Promise<Figure[]>][] = [
        ['fanout', () => fanoutPart(ctx, folder)],
        [
          'fanout-pg',
          async () => {
            const out = await fanoutPgPart(ctx);
            notes.push(...out.notes);
            return out.figures;
          },
        ],
        ['sleeping', () => sleepingPart(ctx, folder)],
        ['lateness', () => latenessPart(ctx, folder)],
        ['child', () => childPart(ctx, folder)],
      ];
      for (const [name, part] of parts) {
        if (ctx.parts !== undefined && !ctx.parts.has(name)) continue;
        ctx.progress(`flows: ${name}`);
        figures.push(...(await part()));
      }
      notes.push(
        'SQLite in WAL mode with synchronous=FULL, group commit; one supervisor in the bench process',
        'a parked run holds no lease, no slot and no timer of its own: the worker keeps one timer for the earliest wait',
      );
      return { figures, notes };
    });
  },
};
