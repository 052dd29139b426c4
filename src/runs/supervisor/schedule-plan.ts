/**
 * What a schedule's next step is, decided from its row alone (pure: the scheduler reads the row and the status of its
 * last run, asks here, and applies the answer as one compare-and-swap). The order of the steps is what makes a tick
 * start at most one run: a taken tick (`pending_tick_at`) is finished before anything else, a buffered tick goes
 * before a new one, and missed ticks are counted in one jump before the first tick that runs.
 */
import type { CronTimes } from '../flow/schedules.js';
import { WAIT_FOREVER, type ScheduleRecord, type ScheduleUpdate } from '../store/types.js';

/** catchUp `none`: a tick at most this late still runs (a worker noticing it a little late is not a miss). */
export const LATE_TICK_GRACE_MS = 60_000;
/** catchUp `all`: most missed ticks that still run; older ones are counted missed. */
export const CATCH_UP_ALL_CAP = 100;
/** Due ticks enumerated in one step; a longer backlog is counted missed in several steps. */
const MAX_ENUMERATED = 10_000;

export type ScheduleStep =
  /** Nothing to do before `wakeAt` (ms since the epoch). */
  | { readonly kind: 'idle'; readonly wakeAt: number }
  /** A taken tick whose run must be started (idempotently) and recorded. */
  | { readonly kind: 'start'; readonly tick: number }
  /** One compare-and-swap to apply; then look again. */
  | { readonly kind: 'update'; readonly set: ScheduleUpdate['set']; readonly add?: ScheduleUpdate['add'] };

/** The due ticks from `from` up to `now`: how many, the newest (at most CATCH_UP_ALL_CAP), and whether it stopped short. */
function dueTicks(times: CronTimes, from: number, now: number) {
  const recent: number[] = [];
  let count = 0;
  let at: number | undefined = from;
  while (at !== undefined && at <= now && count < MAX_ENUMERATED) {
    count++;
    recent.push(at);
    if (recent.length > CATCH_UP_ALL_CAP) recent.shift();
    at = times.next(at);
  }
  const truncated = at !== undefined && at <= now;
  return { count, recent, following: at ?? WAIT_FOREVER, truncated };
}

/**
 * The next step of `row` at `now`. `previousLive` says whether the schedule's last run is not yet terminal (false
 * when it has none).
 */
export function planStep(row: ScheduleRecord, now: number, times: CronTimes, previousLive: boolean): ScheduleStep {
  if (row.pending_tick_at !== null) return { kind: 'start', tick: row.pending_tick_at };
  if (row.buffered_tick_at !== null && !previousLive) {
    return { kind: 'update', set: { pending_tick_at: row.buffered_tick_at, buffered_tick_at: null } };
  }
  if (row.next_tick_at > now) return { kind: 'idle', wakeAt: row.next_tick_at };
  const due = dueTicks(times, row.next_tick_at, now);
  if (due.truncated) {
    return { kind: 'update', set: { next_tick_at: due.following }, add: { missed: due.count } };
  }
  const latest = due.recent[due.recent.length - 1] ?? row.next_tick_at;
  const runnable =
    row.catch_up === 'all'
      ? due.recent
      : row.catch_up === 'latest' || now - latest <= LATE_TICK_GRACE_MS
        ? [latest]
        : [];
  const missed = due.count - runnable.length;
  if (missed > 0) {
    return { kind: 'update', set: { next_tick_at: runnable[0] ?? due.following }, add: { missed } };
  }
  const tick = row.next_tick_at;
  const next_tick_at = times.next(tick) ?? WAIT_FOREVER;
  if (row.overlap === 'allow' || !previousLive) {
    return { kind: 'update', set: { pending_tick_at: tick, next_tick_at } };
  }
  if (row.overlap === 'buffer_one' && row.buffered_tick_at === null) {
    return { kind: 'update', set: { buffered_tick_at: tick, next_tick_at } };
  }
  return { kind: 'update', set: { next_tick_at }, add: { skipped: 1 } };
}
