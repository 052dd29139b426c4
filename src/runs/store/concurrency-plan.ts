/**
 * What admission to a concurrency slot means, decided in one place for both backends (see RunConcurrency): the checks
 * on a slot request and its seed, the predicates that say which runs hold a slot and which wait for one, and the seed
 * a waiting run is written with.
 */
import { StoreArgumentError } from './argument-error.js';
import { prepareSeed, type PreparedCommit } from './commit-plan.js';
import { RunStatus, type Commit, type ConcurrencySlot } from './types.js';
import { checkBatch, checkCommit } from './validate.js';

export const MAX_SLOT_LIMIT = 10_000;
export const MAX_SLOT_KEY_BYTES = 256;

/** What a run waiting for a slot says as its summary until a promotion admits it (a claim then says "started"). */
export const SLOT_WAIT_SUMMARY = 'queued: waiting for a concurrency slot of its flow';

/**
 * What an admitted run says once a promotion gave it a slot, until a worker claims it ("started"). The promotion also
 * moves its record revision, so a writer holding the waiting record rereads it.
 */
export const ADMITTED_SUMMARY = 'queued: admitted, waiting for a free execution slot';

/**
 * Runs of a (definition_name, slot_key) that hold a slot: every non-terminal one except those waiting. SQL over the
 * `runs` columns, shared by both backends (the partial index runs_slot_holders serves it).
 */
export const HOLDS_SLOT = `slot_key IS NOT NULL AND status IN ('pending', 'running', 'interrupted')
  AND NOT (status = 'pending' AND wait_until IS NOT NULL)`;

/** Runs waiting for a slot: pending with their seed and `wait_until` set (index runs_slot_waiting). */
export const WAITS_FOR_SLOT = `slot_key IS NOT NULL AND status = 'pending' AND wait_until IS NOT NULL`;

/**
 * The keys a promotion sweep looks at (`{s}` the table prefix: '' on SQLite, the quoted schema and a dot on PostgreSQL;
 * one parameter, the limit): keys with a waiting run AND a free slot. Keys that are full are left out, so however many
 * of them have waiters, a key whose promotion was missed (its holder's worker died) is always among those swept.
 */
export function sweepKeysSql(prefix: string, limitParam: string): string {
  return `SELECT k.definition_name, k.slot_key FROM ${prefix}run_slot_keys k
    WHERE EXISTS (SELECT 1 FROM ${prefix}runs r
        WHERE r.definition_name = k.definition_name AND r.slot_key = k.slot_key AND ${WAITS_FOR_SLOT})
      AND (SELECT count(*) FROM ${prefix}runs r
        WHERE r.definition_name = k.definition_name AND r.slot_key = k.slot_key AND ${HOLDS_SLOT}) < k.slot_limit
    LIMIT ${limitParam}`;
}

/** Refuses a malformed slot request (invalid_arguments, naming the field, never its value). */
export function checkSlot(slot: ConcurrencySlot): void {
  if (typeof slot !== 'object' || slot === null) throw new StoreArgumentError('slot must be { key, limit }');
  const { key, limit } = slot;
  if (typeof key !== 'string' || Buffer.byteLength(key, 'utf8') > MAX_SLOT_KEY_BYTES) {
    throw new StoreArgumentError(`slot.key must be a string of at most ${MAX_SLOT_KEY_BYTES} bytes`);
  }
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SLOT_LIMIT) {
    throw new StoreArgumentError(`slot.limit must be an integer from 1 to ${MAX_SLOT_LIMIT}`);
  }
}

/** Checks the seed of a limited run: a queued seed (pending, no lease) on the record's revision 0. */
export function checkLimitedSeed(seed: Commit): void {
  checkCommit(seed);
  if (seed.patch.status !== RunStatus.Pending || seed.lease !== undefined || seed.checkpoint?.revision !== 0) {
    throw new StoreArgumentError('the seed of a limited run must be a queued seed (pending, revision 0, no lease)');
  }
}

/** Prepares the seed of a limited run as written when it is admitted (`admitted`) or must wait for a slot. */
export function limitedSeed(record: { readonly run_id: string }, seed: Commit, admitted: boolean): PreparedCommit {
  checkLimitedSeed(seed);
  const commit = admitted ? seed : { ...seed, patch: { ...seed.patch, status_summary: SLOT_WAIT_SUMMARY } };
  return prepareSeed(record, commit);
}

/** Checks the sweep's key count (1..1000). */
export function checkSweepLimit(limit: number): void {
  checkBatch('limit', limit);
  if (limit < 1) throw new StoreArgumentError('limit must be at least 1');
}
