/**
 * The scheduler of a running supervisor: starts the runs of flow schedules (ScheduleSpec), exactly once per tick
 * across every worker of a store. At start it syncs the schedules its catalog declares (the latest registered version
 * of each flow name owns them); then it sleeps until the earliest due tick (a timer, with a poll as fallback, which
 * also notices a buffered tick's previous run ending), and steps each due schedule with schedule-plan.ts.
 *
 * Exactly once: every step is a compare-and-swap on the schedule's row, so one worker takes a tick; a taken tick is
 * recorded as pending before its run starts, the run's idempotency key is derived from (schedule, tick), and any
 * worker finishes a pending tick: a crash or a race between taking and starting replays the same run, never a second.
 * All state lives in the store, so the scheduler survives restarts. It reads time from the injected Clock.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { FlowCatalog } from '../flow/catalog.js';
import { cronTimes, tickInput, type CompiledSchedule, type CronTimes } from '../flow/schedules.js';
import {
  TERMINAL_STATUSES,
  type RunLedger,
  type RunSchedules,
  type ScheduleDeclaration,
  type ScheduleRecord,
} from '../store/types.js';
import type { ErrorContext } from '../executor/run-execution.js';
import { planStep } from './schedule-plan.js';
import { StartRefusal, type SessionController } from './types.js';

/** The session every run of a flow's schedules belongs to (see the flows guide, "Schedules"). */
export function scheduleSessionId(definitionName: string): string {
  return `schedule:${definitionName}`;
}

/** The idempotency key of the run a tick starts: the same tick always names the same run. */
export function tickIdempotencyKey(scheduleId: string, tick: number): string {
  return `schedule:${scheduleId}:${new Date(tick).toISOString()}`;
}

/** Every schedule of the store, in (name, id) order. */
export async function listAllSchedules(store: RunSchedules): Promise<ScheduleRecord[]> {
  const all: ScheduleRecord[] = [];
  for (;;) {
    const last = all[all.length - 1];
    const after =
      last === undefined ? {} : { after: { definition_name: last.definition_name, schedule_id: last.schedule_id } };
    const page = await store.listSchedules({ ...after, limit: 1000 });
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

/** True when a store keeps schedules (every RunStore does; a partial test double may not). */
export function keepsSchedules(store: object): store is RunSchedules {
  return typeof (store as Partial<RunSchedules>).listSchedules === 'function';
}

export interface SchedulerDeps {
  readonly store: RunLedger & RunSchedules;
  readonly catalog: FlowCatalog;
  readonly clock: Clock;
  /** Longest sleep between two looks at the schedules. */
  readonly pollMs: number;
  readonly forSession: (sessionId: string) => SessionController;
  readonly onError: (error: unknown, where: ErrorContext) => void;
}

/** Steps one schedule takes in one pass at most (a long catch-up continues on the next pass). */
const MAX_STEPS_PER_PASS = 500;

export class Scheduler {
  readonly #deps: SchedulerDeps;
  readonly #times = new Map<string, CronTimes>();
  #synced = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  #again = false;

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
  }

  /** True when the catalog declares any schedule (otherwise the scheduler only syncs, at start). */
  get #declares(): boolean {
    return this.#deps.catalog.list().some((def) => def.schedules.size > 0);
  }

  /** Syncs the catalog's schedules, then starts stepping them. */
  async start(): Promise<void> {
    this.kick();
    await this.#pass;
  }

  /** Looks at the schedules now (coalesces with a pass in flight). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#pass !== undefined) {
      this.#again = true;
      return;
    }
    this.#pass = this.#loop().finally(() => (this.#pass = undefined));
  }

  /** Stops the timer and waits for the pass in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pass;
  }

  async #loop(): Promise<void> {
    let wakeAt: number;
    do {
      this.#again = false;
      try {
        if (!this.#synced) await this.#sync();
        wakeAt = await this.#stepAll();
      } catch (error) {
        this.#deps.onError(error, { phase: 'schedule' });
        wakeAt = Number.POSITIVE_INFINITY;
      }
    } while (this.#again && !this.#stopped);
    this.#arm(wakeAt);
  }

  #arm(wakeAt: number): void {
    if (this.#stopped || (!this.#declares && this.#synced)) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const delay = Math.min(Math.max(0, wakeAt - this.#deps.clock.now().getTime()), this.#deps.pollMs);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.kick();
    }, delay);
    this.#timer.unref();
  }

  /** Makes the store hold what the catalog declares, for each flow name whose latest version this worker has. */
  async #sync(): Promise<void> {
    const { store, catalog, clock } = this.#deps;
    const now = clock.now();
    const stored = new Set((await listAllSchedules(store)).map((row) => row.definition_name));
    const names = [...new Set(catalog.list().map((def) => def.name))];
    for (const name of names) {
      const latest = catalog.latest(name);
      if (latest === undefined || (latest.schedules.size === 0 && !stored.has(name))) continue;
      const declared: ScheduleDeclaration[] = [];
      for (const schedule of latest.schedules.values()) {
        declared.push({
          definition_name: name,
          schedule_id: schedule.id,
          definition_version: latest.version,
          cron: schedule.cron,
          timezone: schedule.timezone,
          overlap: schedule.overlap,
          catch_up: schedule.catchUp,
          next_tick_at: this.#cron(schedule.cron, schedule.timezone).next(now.getTime()) ?? now.getTime(),
        });
      }
      await store.syncSchedules(name, declared, now.toISOString());
    }
    this.#synced = true;
  }

  #cron(cron: string, timezone: string): CronTimes {
    const key = `${cron}\u0000${timezone}`;
    let times = this.#times.get(key);
    if (times === undefined) {
      times = cronTimes(cron, timezone);
      this.#times.set(key, times);
    }
    return times;
  }

  /** Steps every schedule this worker can run; answers the earliest instant one is due next. */
  async #stepAll(): Promise<number> {
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const row of await listAllSchedules(this.#deps.store)) {
      if (this.#stopped) break;
      const schedule = this.#deps.catalog
        .resolve(row.definition_name, row.definition_version)
        ?.schedules.get(row.schedule_id);
      if (schedule === undefined) continue; // another worker's flow version: left to the workers that have it
      try {
        wakeAt = Math.min(wakeAt, await this.#step(row, schedule));
      } catch (error) {
        this.#deps.onError(error, { phase: 'schedule' });
      }
    }
    return wakeAt;
  }

  /** Steps one schedule until nothing is due; answers when it is due next. */
  async #step(first: ScheduleRecord, schedule: CompiledSchedule): Promise<number> {
    const { store, clock } = this.#deps;
    const times = this.#cron(first.cron, first.timezone);
    let row: ScheduleRecord | undefined = first;
    for (let steps = 0; row !== undefined && steps < MAX_STEPS_PER_PASS && !this.#stopped; steps++) {
      const now = clock.now();
      // The last run's status matters only when a tick is due or buffered: an idle look reads nothing more.
      const due = row.pending_tick_at === null && (row.buffered_tick_at !== null || row.next_tick_at <= now.getTime());
      const plan = planStep(row, now.getTime(), times, due && (await this.#previousLive(row)));
      if (plan.kind === 'idle') return plan.wakeAt;
      if (plan.kind === 'start') {
        row = await this.#startTick(row, schedule, plan.tick);
        continue;
      }
      const update = {
        definition_name: row.definition_name,
        schedule_id: row.schedule_id,
        expected_revision: row.revision,
        set: plan.set,
        ...(plan.add === undefined ? {} : { add: plan.add }),
        updated_at: now.toISOString(),
      };
      row = (await store.updateSchedule(update)) ?? (await store.getSchedule(row.definition_name, row.schedule_id));
    }
    return clock.now().getTime();
  }

  /** True while the schedule's last run is not terminal. */
  async #previousLive(row: ScheduleRecord): Promise<boolean> {
    if (row.last_run_id === null || row.overlap === 'allow') return false;
    const run = await this.#deps.store.getRunById(row.last_run_id);
    return run !== undefined && !TERMINAL_STATUSES.has(run.status);
  }

  /** Starts (or finds, after a crash or race) the run of a taken tick and records it; answers the row after. */
  async #startTick(row: ScheduleRecord, schedule: CompiledSchedule, tick: number): Promise<ScheduleRecord | undefined> {
    const outcome = await this.#startRun(row, schedule, tick);
    const { store, clock } = this.#deps;
    let current: ScheduleRecord | undefined = row;
    // The row may have moved (a sync, another worker finishing the same tick): retry while the tick is still pending.
    while (current !== undefined && current.pending_tick_at === tick && !this.#stopped) {
      const set = outcome.ok
        ? { pending_tick_at: null, last_tick_at: tick, last_run_id: outcome.runId }
        : { pending_tick_at: null, last_error: outcome.message };
      const updated = await store.updateSchedule({
        definition_name: row.definition_name,
        schedule_id: row.schedule_id,
        expected_revision: current.revision,
        set,
        add: outcome.ok ? { started: 1 } : { failed: 1 },
        updated_at: clock.now().toISOString(),
      });
      if (updated !== undefined) return updated;
      current = await store.getSchedule(row.definition_name, row.schedule_id);
    }
    return current;
  }

  async #startRun(
    row: ScheduleRecord,
    schedule: CompiledSchedule,
    tick: number,
  ): Promise<{ ok: true; runId: string } | { ok: false; message: string }> {
    const input = tickInput(schedule, new Date(tick));
    if (!input.ok) return input;
    const sessionId = scheduleSessionId(row.definition_name);
    const idempotencyKey = tickIdempotencyKey(row.schedule_id, tick);
    const { clock, forSession, store } = this.#deps;
    const outcome = await forSession(sessionId).startNew({
      definitionName: row.definition_name,
      definitionVersion: row.definition_version,
      input: input.value,
      parentRunId: null,
      idempotencyKey,
      mintRunId: () => randomUUID(),
      now: () => clock.now().toISOString(),
    });
    switch (outcome.kind) {
      case 'started':
      case 'replayed':
        return { ok: true, runId: outcome.run.run_id };
      case 'refused': {
        if (outcome.code === StartRefusal.IdempotencyConflict) {
          // The tick's run exists with another input (an input function that is not a function of the tick alone).
          const existing = await store.findByIdempotencyKey(sessionId, idempotencyKey);
          if (existing !== undefined) return { ok: true, runId: existing.run_id };
        }
        const why = outcome.message === undefined ? outcome.code : `${outcome.code}: ${outcome.message}`;
        return { ok: false, message: why.slice(0, 1024) };
      }
      case 'failed':
        // The flow's own input check threw: this tick can never start; anything else (the store) is retried.
        if (outcome.stage === 'definition') return { ok: false, message: 'definition: the input check failed' };
        throw outcome.error instanceof Error ? outcome.error : new Error(`scheduled start failed at ${outcome.stage}`);
    }
  }
}
