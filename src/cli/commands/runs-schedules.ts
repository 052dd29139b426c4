/**
 * `rimthan runs schedules [--store SPEC] [--json]`: every flow schedule of a store (see the flows guide, "Schedules")
 * with its cron, zone, policies, next tick, last tick and run, and how many ticks started, were skipped, missed or
 * failed. Read-only: it opens an existing store and executes nothing. A table by default, `--json` for the records.
 */
import { listAllSchedules, scheduleSessionId, type ScheduleRecord } from '../../runs/index.js';
import { parseCommand, positionals } from '../args.js';
import type { CliIo } from '../io.js';
import { existingStore } from './runs-operator.js';
import { RUNS_SCHEDULES_OPTIONS } from './runs-options.js';

const at = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The JSON view of one schedule (instants as RFC 3339 UTC). */
function view(row: ScheduleRecord) {
  return {
    flow: row.definition_name,
    version: row.definition_version,
    schedule: row.schedule_id,
    cron: row.cron,
    timezone: row.timezone,
    overlap: row.overlap,
    catch_up: row.catch_up,
    session_id: scheduleSessionId(row.definition_name),
    next_tick_at: at(row.next_tick_at),
    last_tick_at: at(row.last_tick_at),
    last_run_id: row.last_run_id,
    pending_tick_at: at(row.pending_tick_at),
    buffered_tick_at: at(row.buffered_tick_at),
    started: row.started,
    skipped: row.skipped,
    missed: row.missed,
    failed: row.failed,
    last_error: row.last_error,
  };
}

/** A plain table: one line per schedule, columns padded to their widest cell. */
function table(rows: readonly ScheduleRecord[]): string {
  if (rows.length === 0) return 'no schedules';
  const header = ['FLOW', 'SCHEDULE', 'CRON', 'ZONE', 'OVERLAP', 'CATCH-UP', 'NEXT', 'LAST TICK', 'LAST RUN', 'COUNTS'];
  const lines = rows.map((row) => [
    `${row.definition_name}@${row.definition_version}`,
    row.schedule_id,
    row.cron,
    row.timezone,
    row.overlap,
    row.catch_up,
    at(row.next_tick_at) ?? '-',
    at(row.last_tick_at) ?? '-',
    row.last_run_id ?? '-',
    `started ${row.started}, skipped ${row.skipped}, missed ${row.missed}, failed ${row.failed}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const errors = rows
    .filter((row) => row.last_error !== '')
    .map((row) => `${row.definition_name}/${row.schedule_id}: last failed tick: ${row.last_error}`);
  return [render(header), ...lines.map(render), ...errors].join('\n');
}

/** `runs schedules [--store SPEC] [--json]`. */
export async function runsSchedules(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs schedules';
  const parsed = parseCommand(argv, RUNS_SCHEDULES_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  const store = await existingStore(parsed, io);
  try {
    const rows = await listAllSchedules(store);
    io.out(parsed.values['json'] === true ? JSON.stringify({ schedules: rows.map(view) }, null, 2) : table(rows));
  } finally {
    await store.close();
  }
}
