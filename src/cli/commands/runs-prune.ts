/**
 * `rimthan runs prune`: retention by hand. Deletes the finished runs (completed, cancelled, failed) of one flow or of
 * every flow that finished before an age and/or beyond each flow's newest N, with their history, checkpoints, events,
 * idempotency keys and the inputs no remaining run refers to, in batches of one store transaction each (progress on
 * stderr), never a run that is not finished nor one whose child or parent is not. `--dry-run` counts what would go.
 * The report names flows and counts only, never anything of a run.
 */
import { systemClock } from '../../core/index.js';
import { MAX_PRUNE_BATCH, type PruneQuery, type RunRetention } from '../../runs/index.js';
import { intOption, parseCommand, positionals, stringOption } from '../args.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { durationOption, MAX_KEEP_LAST } from '../retention-options.js';
import { existingStore } from './runs-operator.js';
import { RUNS_PRUNE_OPTIONS } from './runs-options.js';

/** What a prune did (or, a dry run, would do). */
export interface PruneReport {
  readonly dry_run: boolean;
  readonly deleted: number;
  readonly by_flow: Record<string, number>;
  readonly inputs_deleted: number;
}

/** Runs the prune batch after batch until nothing is due; `progress` hears the running total after each full batch. */
export async function pruneAll(
  store: RunRetention,
  query: Omit<PruneQuery, 'limit'>,
  progress: (deleted: number) => void,
): Promise<PruneReport> {
  const report: PruneReport = { dry_run: query.dry_run === true, deleted: 0, by_flow: {}, inputs_deleted: 0 };
  let inputs = 0;
  let deleted = 0;
  for (;;) {
    const batch = await store.pruneRuns({ ...query, limit: MAX_PRUNE_BATCH });
    for (const [flow, n] of Object.entries(batch.by_definition)) report.by_flow[flow] = (report.by_flow[flow] ?? 0) + n;
    deleted += batch.deleted;
    inputs += batch.inputs_deleted;
    if (query.dry_run === true || batch.deleted < MAX_PRUNE_BATCH) break;
    progress(deleted);
  }
  return { ...report, deleted, inputs_deleted: inputs };
}

function text(report: PruneReport): string {
  const verb = report.dry_run ? 'would delete' : 'deleted';
  const flows = Object.entries(report.by_flow).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = flows.map(([flow, n]) => `${flow}: ${verb} ${n} finished run(s)`);
  lines.push(
    `total: ${verb} ${report.deleted} finished run(s)` +
      (report.dry_run ? '' : ` and ${report.inputs_deleted} input(s) no remaining run refers to`),
  );
  return lines.join('\n');
}

/** `runs prune [--store SPEC] [--flow NAME] [--older-than DURATION] [--keep-last N] [--dry-run] [--json]`. */
export async function runsPrune(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs prune';
  const parsed = parseCommand(argv, RUNS_PRUNE_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  const flow = stringOption(parsed, 'flow');
  const olderThanMs = durationOption(parsed, 'older-than', topic);
  const keepLast = intOption(parsed, 'keep-last', 0, MAX_KEEP_LAST, topic);
  if (olderThanMs === undefined && keepLast === undefined) {
    throw new UsageError('--older-than DURATION or --keep-last N is required (a prune needs a rule)', topic);
  }
  if (flow !== undefined && (flow.length === 0 || Buffer.byteLength(flow) > 256)) {
    throw new UsageError('--flow must be a flow name of 1..256 bytes', topic);
  }
  const dryRun = parsed.values['dry-run'] === true;
  const query: Omit<PruneQuery, 'limit'> = {
    ...(flow === undefined ? {} : { definition_name: flow }),
    ...(olderThanMs === undefined
      ? {}
      : { finished_before: new Date(systemClock.now().getTime() - olderThanMs).toISOString() }),
    ...(keepLast === undefined ? {} : { keep_last: keepLast }),
    ...(dryRun ? { dry_run: true } : {}),
  };
  const store = await existingStore(parsed, io);
  try {
    const report = await pruneAll(store, query, (deleted) =>
      io.err(`rimthan: pruned ${deleted} finished run(s) so far`),
    );
    io.out(parsed.values['json'] === true ? JSON.stringify(report, null, 2) : text(report));
  } finally {
    await store.close();
  }
}
