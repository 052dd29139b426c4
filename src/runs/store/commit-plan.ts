/**
 * What a commit means, decided in one place for both backends: its checkpoint text (prepared once, before it is
 * queued), the checks against the stored record (compare-and-swap on record_revision, the status machine, checkpoint
 * compare-and-append, the lease rule) and the record it leaves behind. SQLite runs these checks in its writer;
 * PostgreSQL runs the same checks inside its batch statement and uses `planCommit` to build the records it returns.
 * `canChain` says when consecutive commits of one run may be written as one (PostgreSQL coalescing).
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { StoreArgumentError } from './argument-error.js';
import { StoreConflictError, type Commit, type RunRecord } from './types.js';
import { checkCommit, isAllowedTransition, isReopen, isTerminal, STORE_LIMITS } from './validate.js';

/** A checked commit with its checkpoint state already in canonical text. */
export interface PreparedCommit {
  readonly commit: Commit;
  readonly checkpointState: string | undefined;
}

/**
 * Canonicalises the checkpoint and applies the checks that need no stored record: the checkpoint size, and the lease
 * rule when the commit names its status (a lease goes only with a commit that leaves the run running).
 */
export function prepareCommit(commit: Commit): PreparedCommit {
  const status = commit.patch.status;
  if (commit.lease !== undefined && status !== undefined && status !== 'running') {
    throw new StoreArgumentError('a lease can only be taken by a commit that leaves the run running');
  }
  if (commit.checkpoint === undefined) return { commit, checkpointState: undefined };
  const checkpointState = canonicalJson(commit.checkpoint.state);
  if (Buffer.byteLength(checkpointState, 'utf8') > STORE_LIMITS.maxCheckpointBytes) {
    throw new StoreArgumentError(`checkpoint state exceeds ${STORE_LIMITS.maxCheckpointBytes} bytes`);
  }
  return { commit, checkpointState };
}

/** Checks and prepares the seed that createRun writes with a new record (a commit on revision 0 of that run). */
export function prepareSeed(record: { readonly run_id: string }, seed: Commit): PreparedCommit {
  checkCommit(seed);
  if (seed.run_id !== record.run_id || seed.expected_record_revision !== 0) {
    throw new StoreArgumentError('a seed written with createRun must be a commit on the new record');
  }
  return prepareCommit(seed);
}

/**
 * Decides a commit against the current record and returns the record it leaves (record_revision + 1). Throws
 * StoreConflictError on refusal. The caller adds the number of activities actually inserted to `activity_cursor`.
 */
export function planCommit(current: RunRecord, commit: Commit): RunRecord {
  if (current.record_revision !== commit.expected_record_revision) {
    throw new StoreConflictError('run record changed since it was read');
  }
  const p = commit.patch;
  const status = p.status ?? current.status;
  if (!isAllowedTransition(current.status, status) && !isReopen(current.status, status, commit.reopen === true)) {
    throw new StoreConflictError(`run status cannot change from ${current.status} to ${status}`);
  }
  if (commit.lease !== undefined && status !== 'running') {
    throw new StoreArgumentError('a lease can only be taken by a commit that leaves the run running');
  }
  let checkpointRevision = current.checkpoint_revision;
  if (commit.checkpoint !== undefined) {
    if (commit.checkpoint.revision !== current.checkpoint_revision + 1) {
      throw new StoreConflictError('checkpoint revision must be exactly one after the latest');
    }
    checkpointRevision = commit.checkpoint.revision;
  }
  return {
    ...current,
    definition_version: p.definition_version ?? current.definition_version,
    status,
    status_summary: p.status_summary ?? current.status_summary,
    cancel_requested: p.cancel_requested ?? current.cancel_requested,
    artifacts: p.artifacts ?? current.artifacts,
    interrupt: p.interrupt === undefined ? current.interrupt : p.interrupt,
    updated_at: p.updated_at,
    checkpoint_revision: checkpointRevision,
    record_revision: current.record_revision + 1,
  };
}

/**
 * True when `next` may be written in the same statement as `prev` (the commit issued just before it for the same
 * run): it is built on the record `prev` leaves, both name their status and the change between them is allowed, its
 * checkpoint (if any) follows the chain's last one, and it takes no lease, reopens nothing and re-pins no version (those
 * only head a chain). Whatever `prev` leaves is then exactly what `next` would be checked against alone.
 */
export function canChain(prev: Commit, next: Commit, lastCheckpoint: number | undefined): boolean {
  if (next.expected_record_revision !== prev.expected_record_revision + 1) return false;
  if (next.lease !== undefined || next.reopen !== undefined || next.patch.definition_version !== undefined)
    return false;
  const from = prev.patch.status;
  const to = next.patch.status;
  if (from === undefined || to === undefined || !isAllowedTransition(from, to)) return false;
  if (next.checkpoint === undefined) return true;
  return lastCheckpoint === undefined || next.checkpoint.revision === lastCheckpoint + 1;
}

/**
 * What RunStore.requestCancel writes over `current`, read inside the writing transaction: a commit setting
 * `cancel_requested` and the reason as summary (the record revision moves, so the owner's next compare-and-swap fails
 * and it rereads), or undefined when there is nothing to request (a terminal run, or a request already recorded).
 */
export function cancelRequestCommit(current: RunRecord, reason: string, updated_at: string): Commit | undefined {
  if (isTerminal(current.status) || current.cancel_requested) return undefined;
  return {
    run_id: current.run_id,
    expected_record_revision: current.record_revision,
    patch: { cancel_requested: true, status_summary: reason, updated_at },
  };
}
