/**
 * Retention, shared by both stores: the checks on a prune query, the SQL conditions that say which finished runs may
 * go, and the per-flow walk both backends follow (a cutoff for `keep_last`, then batches of due runs in finishing
 * order). Messages name the field, never its value.
 */
import { StoreArgumentError } from './argument-error.js';
import { MAX_PRUNE_BATCH, type PruneQuery, type PruneResult } from './types.js';
import { STORE_LIMITS } from './validate.js';

/** Most flows `finishedDefinitions` lists (and a prune of every flow walks). */
export const MAX_FINISHED_DEFINITIONS = 10_000;

/** Largest `keep_last`. */
export const MAX_KEEP_LAST = 1_000_000_000;

/** The terminal statuses as an SQL list (the `runs_finished` index's condition, word for word). */
export const FINISHED = `status IN ('completed', 'cancelled', 'failed')`;

/**
 * SQL condition on a finished run aliased `r` (both backends; `{t}` is the runs table): no child of it is still
 * unfinished, and its parent (when it has one) is finished too.
 */
export function prunableCondition(table: string): string {
  return `NOT EXISTS (SELECT 1 FROM ${table} c WHERE c.parent_run_id = r.run_id
      AND c.status NOT IN ('completed', 'cancelled', 'failed'))
    AND NOT EXISTS (SELECT 1 FROM ${table} p WHERE p.run_id = r.parent_run_id
      AND p.status NOT IN ('completed', 'cancelled', 'failed'))`;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A checked prune query, its instant normalised to the stores' `updated_at` form (UTC, milliseconds). */
export interface CheckedPrune {
  readonly definition_name: string | undefined;
  readonly finished_before: string | undefined;
  readonly keep_last: number | undefined;
  readonly limit: number;
  readonly dry_run: boolean;
}

/** Refuses a malformed prune query with `invalid_arguments`. */
export function checkPruneQuery(query: PruneQuery): CheckedPrune {
  if (typeof query !== 'object' || query === null) throw new StoreArgumentError('prune query must be an object');
  const { definition_name, finished_before, keep_last, limit } = query;
  if (definition_name !== undefined) {
    if (typeof definition_name !== 'string' || definition_name.length === 0) {
      throw new StoreArgumentError('definition_name must not be empty');
    }
    if (Buffer.byteLength(definition_name, 'utf8') > STORE_LIMITS.maxIdentifierBytes) {
      throw new StoreArgumentError(`definition_name exceeds ${STORE_LIMITS.maxIdentifierBytes} bytes`);
    }
  }
  let before: string | undefined;
  if (finished_before !== undefined) {
    const ms = typeof finished_before === 'string' && RFC3339.test(finished_before) ? Date.parse(finished_before) : NaN;
    if (!Number.isFinite(ms)) throw new StoreArgumentError('finished_before must be an RFC 3339 timestamp');
    before = new Date(ms).toISOString();
  }
  if (keep_last !== undefined && (!Number.isSafeInteger(keep_last) || keep_last < 0 || keep_last > MAX_KEEP_LAST)) {
    throw new StoreArgumentError(`keep_last must be an integer 0..${MAX_KEEP_LAST}`);
  }
  if (before === undefined && keep_last === undefined) {
    throw new StoreArgumentError('a prune needs finished_before or keep_last (or both)');
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PRUNE_BATCH) {
    throw new StoreArgumentError(`limit must be an integer 1..${MAX_PRUNE_BATCH}`);
  }
  if (query.dry_run !== undefined && typeof query.dry_run !== 'boolean') {
    throw new StoreArgumentError('dry_run must be a boolean');
  }
  return { definition_name, finished_before: before, keep_last, limit, dry_run: query.dry_run === true };
}

/** A finished run's place in its flow's finishing order: (updated_at, created_seq), ties broken by creation. */
export interface FinishPlace {
  readonly at: string;
  readonly seq: number;
}

/** Which of a flow's finished runs are due: finished before `before` and/or strictly before `cutoff` (both: both). */
export interface DueBound {
  readonly before: string | undefined;
  readonly cutoff: FinishPlace | undefined;
}

/** SQL conditions on `r` for a bound, with the placeholder each value takes (`p(name)` names one). */
export function boundCondition(bound: DueBound, p: (name: 'before' | 'cut_at' | 'cut_seq') => string): string {
  return (
    (bound.before === undefined ? '' : ` AND r.updated_at < ${p('before')}`) +
    (bound.cutoff === undefined ? '' : ` AND (r.updated_at, r.created_seq) < (${p('cut_at')}, ${p('cut_seq')})`)
  );
}

/** One backend's retention steps on one flow, which `pruneFlows` composes. */
export interface RetentionBackend {
  /** The place of the flow's `nth` most recently finished run (1-based), if it has that many. */
  nthNewest(name: string, nth: number): Promise<FinishPlace | undefined>;
  /** How many of the flow's finished runs within `bound` may go. */
  countDue(name: string, bound: DueBound): Promise<number>;
  /** Deletes up to `limit` of them (oldest first) in one transaction; returns how many runs and inputs went. */
  deleteDue(name: string, bound: DueBound, limit: number): Promise<{ runs: number; inputs: number }>;
  /** The first flow name with finished runs after `after` in byte order (one index seek), if any. */
  nextFinished(after: string): Promise<string | undefined>;
}

/** Every flow with finished runs (at most MAX_FINISHED_DEFINITIONS), one index seek per name. */
export async function listFinished(backend: RetentionBackend): Promise<string[]> {
  const names: string[] = [];
  let next = await backend.nextFinished('');
  while (next !== undefined && names.length < MAX_FINISHED_DEFINITIONS) {
    names.push(next);
    next = await backend.nextFinished(next);
  }
  return names;
}

/** Which of a flow's runs are due, or null when none is (it has no more than keep_last finished runs). */
async function boundOf(backend: RetentionBackend, name: string, q: CheckedPrune): Promise<DueBound | null> {
  if (q.keep_last === undefined || q.keep_last === 0) return { before: q.finished_before, cutoff: undefined };
  const nth = await backend.nthNewest(name, q.keep_last);
  if (nth === undefined) return null;
  return { before: q.finished_before, cutoff: nth };
}

/** Applies a checked prune to one flow or to every flow, deleting at most `limit` runs in all. */
export async function pruneFlows(backend: RetentionBackend, q: CheckedPrune): Promise<PruneResult> {
  const names = q.definition_name === undefined ? await listFinished(backend) : [q.definition_name];
  const by: Record<string, number> = {};
  let deleted = 0;
  let inputs = 0;
  for (const name of names) {
    if (!q.dry_run && deleted >= q.limit) break;
    const bound = await boundOf(backend, name, q);
    if (bound === null) continue;
    let n: number;
    if (q.dry_run) n = await backend.countDue(name, bound);
    else {
      const done = await backend.deleteDue(name, bound, q.limit - deleted);
      n = done.runs;
      inputs += done.inputs;
    }
    if (n > 0) by[name] = n;
    deleted += n;
  }
  return { deleted, by_definition: by, inputs_deleted: inputs };
}
