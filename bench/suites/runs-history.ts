/**
 * Runs suite, part (c): history page latency must not grow with history length. Runs with 60, 1,000 and 100,000
 * activity entries are written straight through the store's atomic commit (1,000 entries per commit), then one FULL
 * page (limit 50, 50 entries) of each history is timed, interleaved: from revision 5 of the 60-entry run (the only
 * full page it has), from the middle of the others. Equal page sizes, so a ratio reflects history length alone. The
 * reader is `workflow_run_history` when the tools are given, else the store's `history` (same query).
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/core/digest.js';
import { SqliteRunStore } from '../../src/runs/store/sqlite.js';
import {
  ActivityKind,
  RunStatus,
  type ActivityEntry,
  type RunRecord,
  type RunStore,
} from '../../src/runs/store/types.js';
import { fmt, fmtNs } from '../format.js';
import { compare, roundCounter } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import type { TempFolder } from '../tmp.js';
import { newRun } from '../../test/runs/store/store-fixtures.js';

const PER_COMMIT = 1000;
const PAGE = 50;
/** The short run: just long enough for one full page. */
const SHORT = 60;

/** Reads one history page after `afterRevision`; returns the number of entries (so the work is observable). */
export type PageReader = (runId: string, afterRevision: number) => Promise<number>;

/** Builds a page reader for a store; the tools variant is supplied by the caller when the tool layer exists. */
export function storePageReader(store: RunStore): PageReader {
  return async (runId, afterRevision) =>
    (await store.history(runId, { after_revision: afterRevision, limit: PAGE })).length;
}

function entry(revision: number, at: string): Omit<ActivityEntry, 'run_id'> {
  return {
    revision,
    ordinal: 0,
    event_id: randomUUID(),
    kind: revision === 0 ? ActivityKind.RunStarted : ActivityKind.VertexCompleted,
    run_status: RunStatus.Running,
    occurred_at: at,
    vertex_id: `v${revision}`,
    completed_vertices: revision,
    total_vertices: 1_000_000,
  };
}

/** Creates a running run in `session` and appends `events` entries (one per revision 0..events-1) in commits of 1,000. */
export async function writeRunWithHistory(store: RunStore, session: string, events: number): Promise<RunRecord> {
  const at = new Date().toISOString();
  const input = '{}';
  const input_sha256 = sha256Hex(input);
  await store.putInput(input_sha256, input);
  let run = await store.createRun(
    newRun(session, { definition_name: 'bench_history', input_sha256, created_at: at, updated_at: at }),
  );
  const run_id = run.run_id;
  for (let first = 0; first < events; first += PER_COMMIT) {
    const count = Math.min(PER_COMMIT, events - first);
    run = await store.commit({
      run_id,
      expected_record_revision: run.record_revision,
      patch: first === 0 ? { status: RunStatus.Running, updated_at: at } : { updated_at: at },
      ...(first === 0 ? { checkpoint: { revision: 0, state: { step: 0 }, created_at: at } } : {}),
      activities: Array.from({ length: count }, (_, i) => entry(first + i, at)),
    });
  }
  return run;
}

export interface HistoryPartOptions {
  readonly folder: TempFolder;
  /** Session the runs are written in (the tool bundle's session when `reader` goes through the tools). */
  readonly session: string;
  /** Opens the store to write into; the runs are read back through `reader(store)`. */
  readonly reader?: (store: SqliteRunStore) => Promise<{ read: PageReader; label: string; close(): Promise<void> }>;
}

/** Part (c): page latency for 10 vs 100k (and 1k) entries, through the reader and through the bare store query. */
export async function historyPart(
  ctx: SuiteContext,
  options: HistoryPartOptions,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const big = ctx.long ? 1_000_000 : 100_000;
  const store = new SqliteRunStore(options.folder.file('history.db'));
  await store.open();
  try {
    ctx.progress(`runs/history: writing runs with ${SHORT}, 1,000 and ${big.toLocaleString('en-US')} entries`);
    const startWrite = process.hrtime.bigint();
    const small = await writeRunWithHistory(store, options.session, SHORT);
    const mid = await writeRunWithHistory(store, options.session, 1000);
    const large = await writeRunWithHistory(store, options.session, big);
    const writeMs = Number(process.hrtime.bigint() - startWrite) / 1e6;
    const custom = options.reader === undefined ? undefined : await options.reader(store);
    const read = custom?.read ?? storePageReader(store);
    const label = custom?.label ?? 'store.history';
    try {
      // After revision `after`: entries after+1 … after+50. The short run's page starts at revision 5.
      const startOf = (events: number): number => (events === SHORT ? 4 : Math.floor(events / 2) - 1);
      const pageOf = (run: RunRecord, events: number) => () => read(run.run_id, startOf(events));
      const counts = [await pageOf(small, SHORT)(), await pageOf(mid, 1000)(), await pageOf(large, big)()];
      if (counts.some((n) => n !== PAGE)) throw new Error(`history pages are not full: ${counts.join(', ')}`);
      const samples = ctx.long ? 31 : 21;
      // Three comparisons with a custom reader (its pages, then the store query alone), two without.
      const comparisons = custom === undefined ? 2 : 3;
      const tick = roundCounter(
        samples * comparisons,
        (done, total) => ctx.progress(`runs/history: ${done}/${total} rounds`),
        7,
      );
      ctx.progress(`runs/history: timing full pages (large vs ${SHORT} entries)`);
      const vsSmall = await compare(pageOf(large, big), pageOf(small, SHORT), {
        samples,
        sampleMs: 10,
        onSample: tick,
      });
      ctx.progress('runs/history: timing middle pages (large vs 1,000 entries)');
      const vsMid = await compare(pageOf(large, big), pageOf(mid, 1000), { samples, sampleMs: 10, onSample: tick });
      const raw = storePageReader(store);
      const rawPage = (run: RunRecord, events: number) => () => raw(run.run_id, startOf(events));
      ctx.progress('runs/history: timing the store query alone (large vs 1,000 entries)');
      const sqlOnly =
        custom === undefined
          ? undefined
          : await compare(rawPage(large, big), rawPage(mid, 1000), { samples, sampleMs: 10, onSample: tick });
      const bigLabel = `${fmt(big)}-entry run`;
      const figures: Figure[] = [
        {
          name: `history page, limit ${PAGE} (both pages full): ${bigLabel} vs ${SHORT}-entry run`,
          rimthan: { value: vsSmall.a.nsPerOp / 1e3, unit: 'µs/page' },
          baseline: { label: `${SHORT}-entry run`, quantity: { value: vsSmall.b.nsPerOp / 1e3, unit: 'µs/page' } },
          ratio: { value: vsSmall.timeRatio, text: `${fmt(vsSmall.timeRatio)}× (${bigLabel} ÷ ${SHORT})` },
          aim: { text: 'flat ≈1× (≤ 1.5×)', met: vsSmall.timeRatio <= 1.5 },
          note:
            `${PAGE} entries on each page (the ${SHORT}-entry run's page starts at revision 5, the large run's in its ` +
            `middle); per entry ${fmtNs(vsSmall.a.nsPerOp / PAGE)} vs ${fmtNs(vsSmall.b.nsPerOp / PAGE)}`,
        },
        {
          name: `history page, middle, limit ${PAGE}: ${bigLabel} vs 1,000-entry run`,
          rimthan: { value: vsMid.a.nsPerOp / 1e3, unit: 'µs/page' },
          baseline: { label: '1,000-entry run', quantity: { value: vsMid.b.nsPerOp / 1e3, unit: 'µs/page' } },
          ratio: { value: vsMid.timeRatio, text: `${fmt(vsMid.timeRatio)}× (${bigLabel} ÷ 1,000)` },
          aim: { text: 'flat ≈1× (≤ 1.5×)', met: vsMid.timeRatio <= 1.5 },
          note: `both pages full (${counts[2]} and ${counts[1]} entries): isolates history length from page size`,
        },
      ];
      if (sqlOnly !== undefined) {
        figures.push({
          name: `diagnostic: store.history query alone (no tool layer), ${bigLabel} vs 1,000-entry run`,
          rimthan: { value: sqlOnly.a.nsPerOp / 1e3, unit: 'µs/page' },
          baseline: { label: '1,000-entry run', quantity: { value: sqlOnly.b.nsPerOp / 1e3, unit: 'µs/page' } },
          ratio: { value: sqlOnly.timeRatio, text: `${fmt(sqlOnly.timeRatio)}× (${bigLabel} ÷ 1,000)` },
          note: `the cursor query under the tool (store.history, limit ${PAGE}), 50 rows each: the tool layer's share is the difference to the row above`,
        });
      }
      const notes = [
        `History read through ${label}; runs written with the store's commit, ${PER_COMMIT} entries per commit ` +
          `(${fmt(big + 1000 + SHORT)} entries in ${fmt(writeMs / 1000)} s).`,
      ];
      return { figures, notes };
    } finally {
      await custom?.close();
    }
  } finally {
    await store.close();
  }
}
