/**
 * Runs suite, part (a): durable per-step overhead. The same 10-sequential-vertex graph of trivial vertices runs on
 * Rimthan (Supervisor + SqliteRunStore, WAL, synchronous=FULL, one commit per vertex) and on LangGraph (StateGraph +
 * SqliteSaver), one run at a time, in interleaved rounds. The figure is wall time per completed vertex, measured from the
 * start call (Rimthan: input store + pending record + durable seed; LangGraph: invoke) to the completed run.
 */
import { createLangGraphChain, type LangGraphChain, type LangGraphDurability } from '../baselines/langgraph.js';
import { fmt, lowerText } from '../format.js';
import { median, medianRatio, nowNs, quantile, rounds } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import type { TempFolder } from '../tmp.js';
import { chainFlow, CHAIN_FLOW, openRuntime, type Runtime } from './runs-runtime.js';

const VERTICES = 10;
const SYNC_NAMES: Readonly<Record<number, string>> = { 0: 'OFF', 1: 'NORMAL', 2: 'FULL', 3: 'EXTRA' };

async function rimthanRun(rt: Runtime): Promise<number> {
  const start = nowNs();
  const pending = await rt.createPending(CHAIN_FLOW, { count: 0 });
  await rt.controller.start(pending.run_id);
  const done = await rt.finished(pending.run_id);
  const ms = Number(nowNs() - start) / 1e6;
  if (done.status !== 'completed') throw new Error(`bench chain run ended ${done.status}`);
  return ms / VERTICES;
}

let threadSeq = 0;
async function langGraphRun(chain: LangGraphChain, durability: LangGraphDurability): Promise<number> {
  const start = nowNs();
  const count = await chain.runOnce(`bench-${++threadSeq}`, durability);
  const ms = Number(nowNs() - start) / 1e6;
  if (count !== VERTICES) throw new Error(`LangGraph chain counted ${count}, expected ${VERTICES}`);
  return ms / VERTICES;
}

/** `runs` runs of one contender; the round's figure is their median ms/vertex. */
function batch(runs: number, once: () => Promise<number>): () => Promise<number> {
  return async () => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push(await once());
    return median(xs);
  };
}

function spread(xs: readonly number[]): string {
  return `p10–p90 ${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))} ms`;
}

/** Part (a). */
export async function stepsPart(
  ctx: SuiteContext,
  folder: TempFolder,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const rt = await openRuntime({
    path: folder.file('steps-rimthan.db'),
    groupCommit: true,
    flows: [chainFlow(VERTICES)],
  });
  const lgEqual = createLangGraphChain(folder.file('steps-langgraph-full.db'), VERTICES);
  const lgDefault = createLangGraphChain(folder.file('steps-langgraph-default.db'), VERTICES);
  // Diagnostic pair without any disk sync: both engines on an in-memory SQLite database (what is left is CPU).
  const rtMem = await openRuntime({ path: ':memory:', groupCommit: true, flows: [chainFlow(VERTICES)] });
  const lgMem = createLangGraphChain(':memory:', VERTICES);
  try {
    // Warm up every contender (JIT, statement caches, the savers' lazy setup), then read the savers' settings.
    for (let i = 0; i < 3; i++) {
      await rimthanRun(rt);
      await langGraphRun(lgEqual, 'sync');
      await langGraphRun(lgDefault, 'async');
      await rimthanRun(rtMem);
      await langGraphRun(lgMem, 'sync');
    }
    const saverDefault = lgDefault.durability();
    lgEqual.setSynchronous('FULL');
    const saverEqual = lgEqual.durability();
    if (saverEqual.synchronous !== 2) throw new Error('could not set the LangGraph saver to synchronous=FULL');

    const runsPerRound = ctx.long ? 10 : 5;
    const roundCount = ctx.long ? 15 : 9;
    const writes0 = { rim: rt.store.writes, lg: lgEqual.writes() };
    await rimthanRun(rt);
    await langGraphRun(lgEqual, 'sync');
    const writesPerRun = { rim: rt.store.writes - writes0.rim, lg: lgEqual.writes() - writes0.lg };

    ctx.progress(`runs/steps: ${roundCount} rounds × ${runsPerRound} runs of a ${VERTICES}-vertex chain per contender`);
    const r = await rounds(
      {
        rimthan: batch(runsPerRound, () => rimthanRun(rt)),
        lgEqual: batch(runsPerRound, () => langGraphRun(lgEqual, 'sync')),
        lgDefault: batch(runsPerRound, () => langGraphRun(lgDefault, 'async')),
        rimMem: batch(runsPerRound, () => rimthanRun(rtMem)),
        lgMem: batch(runsPerRound, () => langGraphRun(lgMem, 'sync')),
      },
      roundCount,
      (i) => ctx.progress(`runs/steps: round ${i + 1}/${roundCount}`),
    );
    const rim = median(r.rimthan);
    const equal = median(r.lgEqual);
    const dflt = median(r.lgDefault);
    const ratioEqual = medianRatio(r.lgEqual, r.rimthan);
    const ratioDefault = medianRatio(r.lgDefault, r.rimthan);
    const ratioMem = medianRatio(r.lgMem, r.rimMem);
    const defaultSync = SYNC_NAMES[saverDefault.synchronous] ?? String(saverDefault.synchronous);
    const figures: Figure[] = [
      {
        name: `time per completed vertex, ${VERTICES}-vertex chain, equal durability`,
        rimthan: { value: rim, unit: 'ms/vertex' },
        baseline: {
          label: 'LangGraph SqliteSaver, durability "sync", synchronous=FULL',
          quantity: { value: equal, unit: 'ms/vertex' },
        },
        ratio: { value: ratioEqual, text: lowerText(ratioEqual) },
        aim: { text: 'Rimthan ≥ 5× lower', met: ratioEqual >= 5 },
        note: `Rimthan ${spread(r.rimthan)}; LangGraph ${spread(r.lgEqual)}`,
      },
      {
        name: `time per completed vertex vs LangGraph as shipped (weaker durability)`,
        rimthan: { value: rim, unit: 'ms/vertex' },
        baseline: {
          label: `LangGraph SqliteSaver defaults: durability "async", synchronous=${defaultSync}`,
          quantity: { value: dflt, unit: 'ms/vertex' },
        },
        ratio: { value: ratioDefault, text: lowerText(ratioDefault) },
        note: `LangGraph ${spread(r.lgDefault)}; it may lose acknowledged steps on power loss (synchronous=${defaultSync})`,
      },
      {
        name: 'diagnostic: engine CPU per vertex (both on in-memory SQLite, no disk sync)',
        rimthan: { value: median(r.rimMem), unit: 'ms/vertex' },
        baseline: {
          label: 'LangGraph, durability "sync", in-memory saver',
          quantity: { value: median(r.lgMem), unit: 'ms/vertex' },
        },
        ratio: { value: ratioMem, text: lowerText(ratioMem) },
        note: 'not durable; shows how much of the rows above is engine work rather than fsync',
      },
    ];
    const notes = [
      `Durability: Rimthan SqliteRunStore opens WAL with synchronous=FULL (set in SqliteRunStore.open). LangGraph's ` +
        `SqliteSaver sets only journal_mode=WAL; read back from its connection: journal_mode=${saverDefault.journalMode}, ` +
        `synchronous=${saverDefault.synchronous} (${defaultSync}) — better-sqlite3 is compiled with ` +
        `SQLITE_DEFAULT_WAL_SYNCHRONOUS=1. ${saverDefault.synchronous === 2 ? 'Same as Rimthan.' : 'That differs from Rimthan, so the headline row sets the saver connection to synchronous=FULL and runs with durability "sync" (each step persisted before the next starts, like Rimthan); the second row is LangGraph as shipped.'}`,
      `Store writes per run: Rimthan ${writesPerRun.rim} (input, record, seed, claim, fence, ${VERTICES} vertex commits — ` +
        `the last one completes the run — lease release, and empty claim polls; each its own transaction unless they ` +
        `meet in one event-loop turn); LangGraph saver put/putWrites calls ${writesPerRun.lg} (each a transaction). ` +
        `At synchronous=FULL each transaction that writes costs one WAL fsync, so both sides are bound by commits per vertex ` +
        `(Rimthan ≈1, LangGraph ≈2).`,
      `Rimthan runs ${VERTICES} trivial async vertices through Supervisor (concurrency 4, one run at a time here); supervisor faults: ${rt.faults()}.`,
    ];
    return { figures, notes };
  } finally {
    lgMem.close();
    await rtMem.close();
    lgEqual.close();
    lgDefault.close();
    await rt.close();
  }
}
