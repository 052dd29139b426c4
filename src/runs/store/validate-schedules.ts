/**
 * Shape checks for flow schedules (declarations, compare-and-swap updates, pages), applied by both stores before they
 * touch storage so they refuse the same inputs alike. Messages name the field, never its value.
 */
import { StoreArgumentError } from './argument-error.js';
import {
  WAIT_FOREVER,
  type ScheduleDeclaration,
  type ScheduleQuery,
  type ScheduleRecord,
  type ScheduleUpdate,
} from './types.js';
import { STORE_LIMITS } from './validate.js';

const SCHEDULE_ID = /^[a-z][a-z0-9_-]{0,63}$/;
const FLOW_NAME = /^[a-z][a-z0-9_]{2,63}$/;
const OVERLAP = new Set(['skip', 'buffer_one', 'allow']);
const CATCH_UP = new Set(['none', 'latest', 'all']);
export const MAX_SCHEDULE_PAGE = 1000;
/** Most schedules one flow name may declare (the flow check allows 32). */
const MAX_DECLARED = 64;

function text(field: string, value: unknown, max: number): void {
  if (typeof value !== 'string' || value.length === 0) throw new StoreArgumentError(`${field} must not be empty`);
  if (Buffer.byteLength(value, 'utf8') > max) throw new StoreArgumentError(`${field} exceeds ${max} bytes`);
}

function instant(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > WAIT_FOREVER) {
    throw new StoreArgumentError(`${field} must be an instant in ms since the epoch`);
  }
}

function key(definition_name: unknown, schedule_id: unknown): void {
  if (typeof definition_name !== 'string' || !FLOW_NAME.test(definition_name)) {
    throw new StoreArgumentError('definition_name must match ^[a-z][a-z0-9_]{2,63}$');
  }
  if (typeof schedule_id !== 'string' || !SCHEDULE_ID.test(schedule_id)) {
    throw new StoreArgumentError('schedule_id must match ^[a-z][a-z0-9_-]{0,63}$');
  }
}

export function checkDefinitionName(definition_name: string): void {
  key(definition_name, 'x');
}

export function checkScheduleKey(definition_name: string, schedule_id: string): void {
  key(definition_name, schedule_id);
}

export function checkDeclarations(definition_name: string, declared: readonly ScheduleDeclaration[]): void {
  const list: unknown = declared;
  if (!Array.isArray(list) || list.length > MAX_DECLARED) {
    throw new StoreArgumentError(`at most ${MAX_DECLARED} schedules per flow`);
  }
  const ids = new Set<string>();
  for (const d of declared) {
    key(d.definition_name, d.schedule_id);
    if (d.definition_name !== definition_name) throw new StoreArgumentError('a declaration names another flow');
    if (ids.has(d.schedule_id)) throw new StoreArgumentError('schedule_id declared twice');
    ids.add(d.schedule_id);
    text('definition_version', d.definition_version, 64);
    text('cron', d.cron, 128);
    text('timezone', d.timezone, 64);
    if (!OVERLAP.has(d.overlap)) throw new StoreArgumentError('overlap must be skip, buffer_one or allow');
    if (!CATCH_UP.has(d.catch_up)) throw new StoreArgumentError('catch_up must be none, latest or all');
    instant('next_tick_at', d.next_tick_at);
  }
}

export function checkScheduleUpdate(update: ScheduleUpdate): void {
  key(update.definition_name, update.schedule_id);
  const revision = update.expected_revision;
  if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 0) {
    throw new StoreArgumentError('expected_revision must be an integer >= 0');
  }
  const set = update.set;
  if (set.next_tick_at !== undefined) instant('next_tick_at', set.next_tick_at);
  for (const field of ['pending_tick_at', 'buffered_tick_at', 'last_tick_at'] as const) {
    const value = set[field];
    if (value !== undefined && value !== null) instant(field, value);
  }
  if (set.last_run_id !== undefined && set.last_run_id !== null) {
    text('last_run_id', set.last_run_id, STORE_LIMITS.maxIdentifierBytes);
  }
  if (set.last_error !== undefined) {
    if (typeof set.last_error !== 'string' || Buffer.byteLength(set.last_error) > STORE_LIMITS.maxSummaryBytes) {
      throw new StoreArgumentError(`last_error exceeds ${STORE_LIMITS.maxSummaryBytes} bytes`);
    }
  }
  for (const field of ADD_FIELDS) {
    const value = update.add?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > STORE_LIMITS.maxCounter) {
      throw new StoreArgumentError(`${field} increment must be an integer >= 0`);
    }
  }
  text('updated_at', update.updated_at, 64);
}

export function checkScheduleQuery(query: ScheduleQuery): void {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_SCHEDULE_PAGE) {
    throw new StoreArgumentError(`limit must be an integer 1..${MAX_SCHEDULE_PAGE}`);
  }
  if (query.after !== undefined) key(query.after.definition_name, query.after.schedule_id);
}

/** The SQL column list of a schedule row (both backends). */
export const SCHEDULE_COLUMNS = `definition_name, schedule_id, definition_version, cron, timezone, overlap, catch_up,
  next_tick_at, pending_tick_at, buffered_tick_at, last_tick_at, last_run_id, started, skipped, missed, failed,
  last_error, revision, updated_at`;

/** A schedule row as either driver returns it (PostgreSQL BIGINTs come back as strings). */
export interface ScheduleRow {
  readonly definition_name: string;
  readonly schedule_id: string;
  readonly definition_version: string;
  readonly cron: string;
  readonly timezone: string;
  readonly overlap: string;
  readonly catch_up: string;
  readonly next_tick_at: number | string;
  readonly pending_tick_at: number | string | null;
  readonly buffered_tick_at: number | string | null;
  readonly last_tick_at: number | string | null;
  readonly last_run_id: string | null;
  readonly started: number | string;
  readonly skipped: number | string;
  readonly missed: number | string;
  readonly failed: number | string;
  readonly last_error: string;
  readonly revision: number | string;
  readonly updated_at: string;
}

const orNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function rowToSchedule(row: ScheduleRow): ScheduleRecord {
  return {
    definition_name: row.definition_name,
    schedule_id: row.schedule_id,
    definition_version: row.definition_version,
    cron: row.cron,
    timezone: row.timezone,
    overlap: row.overlap as ScheduleDeclaration['overlap'],
    catch_up: row.catch_up as ScheduleDeclaration['catch_up'],
    next_tick_at: Number(row.next_tick_at),
    pending_tick_at: orNull(row.pending_tick_at),
    buffered_tick_at: orNull(row.buffered_tick_at),
    last_tick_at: orNull(row.last_tick_at),
    last_run_id: row.last_run_id,
    started: Number(row.started),
    skipped: Number(row.skipped),
    missed: Number(row.missed),
    failed: Number(row.failed),
    last_error: row.last_error,
    revision: Number(row.revision),
    updated_at: row.updated_at,
  };
}

/** The fields an update may set or add to (the only names that ever reach the SQL text). */
const SET_FIELDS = [
  'next_tick_at',
  'pending_tick_at',
  'buffered_tick_at',
  'last_tick_at',
  'last_run_id',
  'last_error',
] as const;
const ADD_FIELDS = ['started', 'skipped', 'missed', 'failed'] as const;

/**
 * The SET clause and values of an update, positional from `first` ($N on PostgreSQL, ? on SQLite): only the fields
 * the update names, plus the counters, the revision bump and updated_at.
 */
export function updateAssignments(
  update: ScheduleUpdate,
  placeholder: (index: number) => string,
  first: number,
): { readonly clause: string; readonly values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  const push = (sql: (p: string) => string, value: unknown): void => {
    values.push(value);
    parts.push(sql(placeholder(first + values.length - 1)));
  };
  for (const field of SET_FIELDS) {
    const value = update.set[field];
    if (value !== undefined) push((p) => `${field} = ${p}`, value);
  }
  for (const field of ADD_FIELDS) {
    const value = update.add?.[field];
    if (value !== undefined && value !== 0) push((p) => `${field} = ${field} + ${p}`, value);
  }
  push((p) => `updated_at = ${p}`, update.updated_at);
  parts.push('revision = revision + 1');
  return { clause: parts.join(', '), values };
}
