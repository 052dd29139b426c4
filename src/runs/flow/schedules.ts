/**
 * Flow schedules at registration: each ScheduleSpec is checked (id, five-field cron, IANA time zone, policies, a
 * constant input against the input schema) and compiled into the cron calculator the scheduler uses. The cron reading
 * itself (`cronTimes`) is shared with the scheduler, which reads the cron and zone stored on a schedule's row.
 */
import { Cron } from 'croner';
import { canonicalObject, firstIssue } from '../../core/canonical-object.js';
import { RimthanError } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { SchemaCheck } from '../../core/schema.js';
import type { ScheduleSpec } from './types.js';

export const SCHEDULE_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
export const SCHEDULE_LIMITS = {
  maxSchedules: 32,
  maxCronBytes: 128,
  maxTimezoneBytes: 64,
} as const;
export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'allow'] as const;
export const CATCH_UP_POLICIES = ['none', 'latest', 'all'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** A checked schedule of a registered flow. */
export interface CompiledSchedule {
  readonly id: string;
  readonly cron: string;
  readonly timezone: string;
  readonly overlap: OverlapPolicy;
  readonly catchUp: CatchUpPolicy;
  /** The run input of a tick (the spec's object or function; the scheduler checks what it returns). */
  readonly input: (tick: Date) => unknown;
}

/** Next instants of a cron in a zone. */
export interface CronTimes {
  /** The first tick strictly after `after` (ms since the epoch), or undefined when the cron never fires again. */
  next(after: number): number | undefined;
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Reads a five-field cron in a time zone; throws RimthanError('invalid_definition') naming what is wrong. */
export function cronTimes(cron: string, timezone: string): CronTimes {
  if (typeof timezone !== 'string' || Buffer.byteLength(timezone) > SCHEDULE_LIMITS.maxTimezoneBytes) {
    throw invalid(`schedule time zone must be a string of at most ${SCHEDULE_LIMITS.maxTimezoneBytes} bytes`);
  }
  if (!isTimeZone(timezone)) throw invalid(`schedule time zone ${JSON.stringify(timezone)} is not an IANA time zone`);
  if (typeof cron !== 'string' || Buffer.byteLength(cron) > SCHEDULE_LIMITS.maxCronBytes) {
    throw invalid(`schedule cron must be a string of at most ${SCHEDULE_LIMITS.maxCronBytes} bytes`);
  }
  let job: Cron;
  try {
    job = new Cron(cron, { timezone, paused: true, mode: '5-part' });
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : 'unreadable';
    throw invalid(`schedule cron ${JSON.stringify(cron)} is not a five-field cron (${why})`);
  }
  return {
    next: (after) => {
      const at = job.nextRun(new Date(after));
      return at === null ? undefined : at.getTime();
    },
  };
}

function invalid(message: string): RimthanError {
  return new RimthanError('invalid_definition', message);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T, what: string): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(`${what} must be one of ${allowed.join(', ')}`);
}

/** The input of a tick: a constant object (copied) or the author's function. */
function inputOf(spec: ScheduleSpec, where: string, validateInput: (value: unknown) => SchemaCheck) {
  const input: unknown = spec.input ?? {};
  if (typeof input === 'function') return input as (tick: Date) => unknown;
  if (!isJsonObject(input)) throw invalid(`${where}: input must be a JSON object or a function of the tick`);
  const canonical = canonicalObject(input);
  if (!canonical.ok) throw invalid(`${where}: input ${canonical.message}`);
  const check = validateInput(canonical.value);
  if (!check.ok) throw invalid(`${where}: input does not match the input schema (${firstIssue(check.issues)})`);
  const value = canonical.value;
  return (): unknown => value;
}

/** Checks a flow's `schedules` (undefined: none) and compiles them, by id. */
export function compileSchedules(
  list: unknown,
  validateInput: (value: unknown) => SchemaCheck,
): ReadonlyMap<string, CompiledSchedule> {
  const out = new Map<string, CompiledSchedule>();
  if (list === undefined) return out;
  if (!Array.isArray(list) || list.length > SCHEDULE_LIMITS.maxSchedules) {
    throw invalid(`schedules must be an array of at most ${SCHEDULE_LIMITS.maxSchedules} schedules`);
  }
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) throw invalid('a schedule must be an object');
    const spec = item as ScheduleSpec;
    if (typeof spec.id !== 'string' || !SCHEDULE_ID_PATTERN.test(spec.id)) {
      throw invalid(`schedule id must match ${SCHEDULE_ID_PATTERN.source}`);
    }
    const where = `schedule ${spec.id}`;
    if (out.has(spec.id)) throw invalid(`two schedules with id ${spec.id}`);
    const timezone = spec.timezone ?? 'UTC';
    let times: CronTimes;
    try {
      times = cronTimes(spec.cron, timezone);
    } catch (error) {
      throw invalid(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (times.next(Date.now()) === undefined) throw invalid(`${where}: cron ${spec.cron} never fires`);
    out.set(spec.id, {
      id: spec.id,
      cron: spec.cron,
      timezone,
      overlap: oneOf(spec.overlap, OVERLAP_POLICIES, 'skip', `${where}: overlap`),
      catchUp: oneOf(spec.catchUp, CATCH_UP_POLICIES, 'none', `${where}: catchUp`),
      input: inputOf(spec, where, validateInput),
    });
  }
  return out;
}

/** A tick's input as the scheduler starts it: a JSON object, or a message saying why the tick fails. */
export function tickInput(
  schedule: CompiledSchedule,
  tick: Date,
): { ok: true; value: JsonObject } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = schedule.input(tick);
  } catch {
    return { ok: false, message: 'the schedule input function threw' };
  }
  if (!isJsonObject(value)) return { ok: false, message: 'the schedule input is not a JSON object' };
  return { ok: true, value };
}
