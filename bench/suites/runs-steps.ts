/**
 * Runs suite, part (a): durable per-step overhead. The same 10-sequential-vertex graph of trivial vertices runs on
 * Rimthan (Supervisor + SqliteRunStore, WAL, synchronous=FULL) and on LangGraph (StateGraph + SqliteSaver), one run at
 * a time, in interleaved rounds. The figure is wall time per completed vertex, measured from the start call (Rimthan:
 * input store + pending record + durable seed; LangGraph: invoke) to the completed run being durable.
 *
 * Contenders: Rimthan as shipped (vertex commits pipelined) and with pipelineDepth 1 (every vertex durable before the
 * next starts); LangGraph with durability "sync" (each step persisted before the next starts) and "async" (the next
 * step runs while the checkpoint is written) at synchronous=FULL, and as shipped (async, NORMAL); both on in-memory
 * SQLite as an engine-CPU diagnostic.
 */
import { createLangGraphChain, type LangGraphChain, type LangGraphDurability } from '../baselines/langgraph.js';
import { fmt, lowerText } from '../format.js';
import { median, medianRatio, nowNs, quantile } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import type { TempFolder } from '../tmp.js';
import { measureCommitCost } from './runs-commit-cost.js';
import { chainFlow, CHAIN_FLOW, openRuntime, type Runtime } from './runs-runtime.js';

const VERTICES = 10;
const SYNC_NAMES: Readonly<Record<number, string>> = { 0: 'OFF', 1: 'NORMAL', 2: 'FULL', 3: 'EXTRA' };

let inputSeq = 0;
async function rimthanRun(rt: Runtime): Promise<number> {
  const start = nowNs();
  // A fresh input each run: the input store keeps one copy per digest, and a repeated input would skip its write.
  const pending = await rt.createPending(CHAIN_FLOW, { count: ++inputSeq });
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

/**
 * `runs` timed runs of one contender after one untimed run; the round's figure is their median ms/vertex. The untimed
 * run absorbs what the previous contender left behind (garbage to collect, dirty pages the next fsync must write).
 */
function batch(runs: number, once: () => Promise<number>): () => Promise<number> {
  return async () => {
    await once();
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) xs.push(await once());
    return median(xs);
  };
}

/**
 * Interleaved rounds with the contenders in a new (seeded, reproducible) random order each round. A fixed rotation
 * would give every contender the same predecessor every round, so one contender would always pay for the same
 * neighbour's garbage collection; a random order spreads that over all of them.
 */
async function shuffledRounds<K extends string>(
  contenders: Readonly<Record<K, () => Promise<number>>>,
  count: number,
  onRound: (round: number) => void,
): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  let seed = 0x2545f491;
  const random = (): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let r = 0; r < count; r++) {
    const order = [...names];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as K, order[i] as K];
    }
    for (const name of order) out[name].push(await contenders[name]());
    onRound(r);
  }
  return out;
}

function spread(xs: readonly number[]): string {
  return `p10–p90 ${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))} ms`;
}

/** Store transactions that wrote (each one fsync) and store write calls of one Rimthan run. */
async function rimthanWrites(rt: Runtime): Promise<{ tx: number; calls: number }> {
  const before = { tx: rt.sqlite?.transactions ?? 0, calls: rt.store.writes };
  await rimthanRun(rt);
  return { tx: (rt.sqlite?.transactions ?? 0) - before.tx, calls: rt.store.writes - before.calls };
}

/** Saver put/putWrites calls (each one transaction) of one LangGraph run. */
async function saverWrites(chain: LangGraphChain, durability: LangGraphDurability): Promise<number> {
  const before = chain.writes();
  await langGraphRun(chain, durability);
  return chain.writes() - before;
}

interface Contenders {
  readonly rim: Runtime;
  readonly rimStrict: Runtime;
  readonly rimMem: Runtime;
  readonly lgSync: LangGraphChain;
  readonly lgAsync: LangGraphChain;
  readonly lgDefault: LangGraphChain;
  readonly lgMem: LangGraphChain;
}

async function open(folder: TempFolder): Promise<Contenders> {
  const flows = [chainFlow(VERTICES)];
  return {
    rim: await openRuntime({ path: folder.file('steps-rimthan.db'), groupCommit: true, flows }),
    rimStrict: await openRuntime({ path: folder.file('steps-strict.db'), groupCommit: true, flows, pipelineDepth: 1 }),
    // Diagnostic pair without any disk sync: both engines on an in-memory SQLite database (what is left is CPU).
    rimMem: await openRuntime({ path: ':memory:', groupCommit: true, flows }),
    lgSync: createLangGraphChain(folder.file('steps-langgraph-sync.db'), VERTICES),
    lgAsync: createLangGraphChain(folder.file('steps-langgraph-async.db'), VERTICES),
    lgDefault: createLangGraphChain(folder.file('steps-langgraph-default.db'), VERTICES),
    lgMem: createLangGraphChain(':memory:', VERTICES),
  };
}

async function close(c: Contenders): Promise<void> {
  for (const chain of [c.lgSync, c.lgAsync, c.lgDefault, c.lgMem]) chain.close();
  for (const rt of [c.rim, c.rimStrict, c.rimMem]) await rt.close();
}

/** Part (a). */
export async function stepsPart(
  ctx: SuiteContext,
  folder: TempFolder,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const c = await open(folder);
  try {
    // Warm up every contender (JIT, statement caches, the savers' lazy setup), then read the savers' settings.
    for (let i = 0; i < 3; i++) {
      await rimthanRun(c.rim);
      await rimthanRun(c.rimStrict);
      await rimthanRun(c.rimMem);
      await langGraphRun(c.lgSync, 'sync');
      await langGraphRun(c.lgAsync, 'async');
      await langGraphRun(c.lgDefault, 'async');
      await langGraphRun(c.lgMem, 'sync');
    }
    const saverDefault = c.lgDefault.durability();
    c.lgSync.setSynchronous('FULL');
    c.lgAsync.setSynchronous('FULL');
    if (c.lgSync.durability().synchronous !== 2 || c.lgAsync.durability().synchronous !== 2) {
      throw new Error('could not set the LangGraph saver to synchronous=FULL');
    }
    const rimTx = await rimthanWrites(c.rim);
    const strictTx = await rimthanWrites(c.rimStrict);
    const lgSyncTx = await saverWrites(c.lgSync, 'sync');
    const lgAsyncTx = await saverWrites(c.lgAsync, 'async');
    const commitCost = measureCommitCost(folder, ctx.long ? 800 : 300);

    const runsPerRound = ctx.long ? 10 : 5;
    const roundCount = ctx.long ? 15 : 9;
    ctx.progress(`runs/steps: ${roundCount} rounds × ${runsPerRound} runs of a ${VERTICES}-vertex chain per contender`);
    const r = await shuffledRounds(
      {
        rim: batch(runsPerRound, () => rimthanRun(c.rim)),
        rimStrict: batch(runsPerRound, () => rimthanRun(c.rimStrict)),
        lgSync: batch(runsPerRound, () => langGraphRun(c.lgSync, 'sync')),
        lgAsync: batch(runsPerRound, () => langGraphRun(c.lgAsync, 'async')),
        lgDefault: batch(runsPerRound, () => langGraphRun(c.lgDefault, 'async')),
        rimMem: batch(runsPerRound, () => rimthanRun(c.rimMem)),
        lgMem: batch(runsPerRound, () => langGraphRun(c.lgMem, 'sync')),
      },
      roundCount,
      (i) => ctx.progress(`runs/steps: round ${i + 1}/${roundCount}`),
    );
    const defaultSync = SYNC_NAMES[saverDefault.synchronous] ?? String(saverDefault.synchronous);
    const figures = stepFigures(r, defaultSync);
    figures.push({
      name: 'diagnostic: one durable SQLite commit on this machine (WAL, one-row write transaction)',
      rimthan: { value: commitCost.fullMs, unit: 'ms/commit at synchronous=FULL' },
      baseline: {
        label: 'the same at synchronous=NORMAL (no fsync)',
        quantity: { value: commitCost.normalMs, unit: 'ms/commit' },
      },
      note:
        `FULL p10–p90 ${fmt(commitCost.fullSpread[0])}–${fmt(commitCost.fullSpread[1])} ms. Per run Rimthan made ` +
        `${rimTx.tx} durable transactions (${rimTx.calls} store write calls; pipelineDepth 1: ${strictTx.tx}), ` +
        `LangGraph sync ${lgSyncTx} and async ${lgAsyncTx} saver transactions: the fsyncs alone cost ` +
        `≈${fmt(rimTx.tx * commitCost.fullMs)} ms vs ≈${fmt(lgSyncTx * commitCost.fullMs)} ms per run`,
    });
    const notes = [
      `Durability: Rimthan SqliteRunStore opens WAL with synchronous=FULL (set in SqliteRunStore.open). LangGraph's ` +
        `SqliteSaver sets only journal_mode=WAL; read back from its connection: journal_mode=${saverDefault.journalMode}, ` +
        `synchronous=${saverDefault.synchronous} (${defaultSync}) — better-sqlite3 is compiled with ` +
        `SQLITE_DEFAULT_WAL_SYNCHRONOUS=1. The equal-durability rows set the saver connection to synchronous=FULL; the ` +
        `"as shipped" row keeps its defaults.`,
      `What each side guarantees: a Rimthan run is reported completed only once its last commit is durable; with ` +
        `pipelining (the default, pipelineDepth 16) vertex N+1 runs while vertex N's commit is made durable, and the ` +
        `commits of consecutive instant vertices share one transaction, so after a crash up to 16 completed vertices ` +
        `that were not yet durable run again (with new idempotency keys). LangGraph "async" overlaps the same way; ` +
        `"sync" and Rimthan pipelineDepth 1 make each step durable before the next starts.`,
      `Rimthan's fsynced transactions per run: the pending record, the seed (which also takes the worker's lease, so ` +
        `no claim write) and the vertex commits — ${rimTx.tx} as shipped, ${strictTx.tx} with pipelineDepth 1. The ` +
        `input is written without an fsync of its own (WAL commits reach the disk in order, and the pending record ` +
        `that first refers to it is synced right after); the terminal commit clears the lease, so no release write.`,
      `Rimthan runs ${VERTICES} trivial async vertices through Supervisor (concurrency 4, one run at a time here); ` +
        `supervisor faults: ${c.rim.faults() + c.rimStrict.faults() + c.rimMem.faults()}.`,
    ];
    return { figures, notes };
  } finally {
    await close(c);
  }
}

type Series = Record<'rim' | 'rimStrict' | 'lgSync' | 'lgAsync' | 'lgDefault' | 'rimMem' | 'lgMem', number[]>;

function stepFigures(r: Series, defaultSync: string): Figure[] {
  const ms = (value: number) => ({ value, unit: 'ms/vertex' });
  const ratio = (lg: readonly number[], rim: readonly number[]) => {
    const value = medianRatio(lg, rim);
    return { value, text: lowerText(value) };
  };
  const equal = ratio(r.lgSync, r.rim);
  return [
    {
      name: `time per completed vertex, ${VERTICES}-vertex chain, equal durability (both synchronous=FULL)`,
      rimthan: ms(median(r.rim)),
      baseline: { label: 'LangGraph SqliteSaver, durability "sync", synchronous=FULL', quantity: ms(median(r.lgSync)) },
      ratio: equal,
      aim: { text: 'Rimthan ≥ 5× lower', met: equal.value >= 5 },
      note: `Rimthan as shipped (pipelined) ${spread(r.rim)}; LangGraph ${spread(r.lgSync)}`,
    },
    {
      name: '… both overlapping a step with the previous step’s checkpoint write',
      rimthan: ms(median(r.rim)),
      baseline: { label: 'LangGraph, durability "async", synchronous=FULL', quantity: ms(median(r.lgAsync)) },
      ratio: ratio(r.lgAsync, r.rim),
      note: `like for like with Rimthan's pipelining; LangGraph ${spread(r.lgAsync)}`,
    },
    {
      name: '… both making every step durable before the next starts',
      rimthan: ms(median(r.rimStrict)),
      baseline: { label: 'LangGraph, durability "sync", synchronous=FULL', quantity: ms(median(r.lgSync)) },
      ratio: ratio(r.lgSync, r.rimStrict),
      note: `Rimthan pipelineDepth 1 ${spread(r.rimStrict)}`,
    },
    {
      name: 'time per completed vertex vs LangGraph as shipped (weaker durability)',
      rimthan: ms(median(r.rim)),
      baseline: {
        label: `LangGraph SqliteSaver defaults: durability "async", synchronous=${defaultSync}`,
        quantity: ms(median(r.lgDefault)),
      },
      ratio: ratio(r.lgDefault, r.rim),
      note: `LangGraph ${spread(r.lgDefault)}; it may lose acknowledged steps on power loss (synchronous=${defaultSync})`,
    },
    {
      name: 'diagnostic: engine CPU per vertex (both on in-memory SQLite, no disk sync)',
      rimthan: ms(median(r.rimMem)),
      baseline: { label: 'LangGraph, durability "sync", in-memory saver', quantity: ms(median(r.lgMem)) },
      ratio: ratio(r.lgMem, r.rimMem),
      note: 'not durable; shows how much of the rows above is engine work rather than fsync',
    },
  ];
}
