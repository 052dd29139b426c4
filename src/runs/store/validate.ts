/**
 * Size limits and shape checks every store applies before touching storage, so both backends refuse the same inputs
 * with the same `invalid_arguments` error. Messages name the field, never its value.
 */
import { StoreArgumentError } from './argument-error.js';
import { sha256Hex } from '../../core/digest.js';
import {
  ActivityKind,
  RunStatus,
  TERMINAL_STATUSES,
  type ActivityEntry,
  type ArtifactDescriptor,
  type Commit,
  type HistoryQuery,
  type InterruptInfo,
  type ListQuery,
  type NewRunRecord,
  type SessionQuery,
} from './types.js';

export const STORE_LIMITS = {
  /** Canonical input documents. */
  maxInputBytes: 256 * 1024,
  maxSummaryBytes: 1024,
  maxArtifacts: 128,
  /** Ids, names, versions, digests, idempotency keys, vertex ids/labels. */
  maxIdentifierBytes: 256,
  /** Activity `message`. */
  maxMessageBytes: 4096,
  /** A serialised checkpoint state. */
  maxCheckpointBytes: 4 * 1024 * 1024,
  maxActivitiesPerCommit: 1000,
  maxPageLimit: 1000,
  /** Sessions per listSessions page (each one aggregates its runs). */
  maxSessionPageLimit: 100,
  /** Ordinals and revisions stay below this so cursor arithmetic fits 32-bit integer columns. */
  maxCounter: 2_147_483_646,
} as const;

const STATUSES: ReadonlySet<string> = new Set(Object.values(RunStatus));
const KINDS: ReadonlySet<string> = new Set(Object.values(ActivityKind));
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Legal status changes (the run status machine). Staying in a non-terminal status is allowed (a vertex commit keeps a
 * run `running`); a terminal run takes no further commit, not even one that keeps its status.
 */
const TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  pending: ['running', 'cancelled', 'failed'],
  running: ['interrupted', 'completed', 'cancelled', 'failed'],
  interrupted: ['running', 'cancelled', 'failed'],
  completed: [],
  cancelled: [],
  failed: [],
};

function invalid(message: string): StoreArgumentError {
  return new StoreArgumentError(message);
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function checkText(field: string, value: unknown, maxBytes: number, allowEmpty = false): void {
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if (!allowEmpty && value.length === 0) throw invalid(`${field} must not be empty`);
  if (utf8Bytes(value) > maxBytes) throw invalid(`${field} exceeds ${maxBytes} bytes`);
}

function checkCounter(field: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > STORE_LIMITS.maxCounter) {
    throw invalid(`${field} must be an integer >= ${min}`);
  }
}

/** True when a run in `from` may move to `to` (a terminal run may not be written again). */
export function isAllowedTransition(from: RunStatus, to: RunStatus): boolean {
  return (from === to && !TERMINAL_STATUSES.has(from)) || TRANSITIONS[from].includes(to);
}

/** Every allowed (from, to) pair, staying in a non-terminal status included (for SQL that checks transitions). */
export function allowedTransitionPairs(): [RunStatus, RunStatus][] {
  const statuses = Object.keys(TRANSITIONS) as RunStatus[];
  return statuses.flatMap((from) =>
    statuses.filter((to) => isAllowedTransition(from, to)).map((to): [RunStatus, RunStatus] => [from, to]),
  );
}

/** The transition an operator restart may make on top of the status machine (see Commit.reopen). */
export function isReopen(from: RunStatus, to: RunStatus, reopen: boolean): boolean {
  return reopen && from === RunStatus.Failed && to === RunStatus.Running;
}

/** True when no further status change is possible. */
export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** Checks a run id given on its own (a wake-up's payload). */
export function checkRunId(run_id: string): void {
  checkText('run_id', run_id, STORE_LIMITS.maxIdentifierBytes);
}

/** Checks a digest/canonical-text pair before it is stored; the digest must match the text. */
export function checkInput(sha256: string, canonical: string): void {
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) throw invalid('input digest must be 64 lowercase hex');
  if (typeof canonical !== 'string') throw invalid('canonical input must be a string');
  if (utf8Bytes(canonical) > STORE_LIMITS.maxInputBytes) {
    throw invalid(`canonical input exceeds ${STORE_LIMITS.maxInputBytes} bytes`);
  }
  if (sha256Hex(canonical) !== sha256) throw invalid('input digest does not match the canonical input');
}

function checkArtifacts(artifacts: readonly ArtifactDescriptor[]): void {
  const list: unknown = artifacts;
  if (!Array.isArray(list)) throw invalid('artifacts must be an array');
  if (artifacts.length > STORE_LIMITS.maxArtifacts) throw invalid(`more than ${STORE_LIMITS.maxArtifacts} artifacts`);
  for (const a of artifacts) {
    checkText('artifact id', a.id, STORE_LIMITS.maxIdentifierBytes);
    checkText('artifact kind', a.kind, STORE_LIMITS.maxIdentifierBytes);
    checkText('artifact digest', a.digest, STORE_LIMITS.maxIdentifierBytes);
    checkCounter('artifact size', a.size, 0);
  }
}

function checkInterrupt(info: InterruptInfo | null): void {
  if (info === null) return;
  if (info.reason !== 'awaiting_input' && info.reason !== 'task_failed') throw invalid('interrupt reason is unknown');
  checkText('interrupt vertex', info.vertex, STORE_LIMITS.maxIdentifierBytes);
  if (info.message !== undefined) checkText('interrupt message', info.message, STORE_LIMITS.maxMessageBytes, true);
}

function checkStatus(field: string, value: unknown): void {
  if (typeof value !== 'string' || !STATUSES.has(value)) throw invalid(`${field} is not a run status`);
}

/** Checks a new run record: limits, and counters at their starting values (no checkpoint, no activity yet). */
export function checkNewRun(record: NewRunRecord): void {
  checkText('session_id', record.session_id, STORE_LIMITS.maxIdentifierBytes);
  checkText('run_id', record.run_id, STORE_LIMITS.maxIdentifierBytes);
  checkText('definition_name', record.definition_name, STORE_LIMITS.maxIdentifierBytes);
  checkText('definition_version', record.definition_version, STORE_LIMITS.maxIdentifierBytes);
  if (record.parent_run_id !== null) checkText('parent_run_id', record.parent_run_id, STORE_LIMITS.maxIdentifierBytes);
  if (!SHA256_HEX.test(record.input_sha256)) throw invalid('input_sha256 must be 64 lowercase hex');
  if (record.idempotency_key !== null) {
    checkText('idempotency_key', record.idempotency_key, STORE_LIMITS.maxIdentifierBytes);
  }
  checkStatus('status', record.status);
  checkText('status_summary', record.status_summary, STORE_LIMITS.maxSummaryBytes, true);
  if (typeof record.cancel_requested !== 'boolean') throw invalid('cancel_requested must be a boolean');
  if (record.checkpoint_revision !== -1) throw invalid('a new run has checkpoint_revision -1');
  if (record.activity_cursor !== 0) throw invalid('a new run has activity_cursor 0');
  checkArtifacts(record.artifacts);
  checkInterrupt(record.interrupt);
  checkText('created_at', record.created_at, 64);
  checkText('updated_at', record.updated_at, 64);
}

function checkActivity(entry: Omit<ActivityEntry, 'run_id'>): void {
  checkCounter('activity revision', entry.revision, 0);
  checkCounter('activity ordinal', entry.ordinal, 0);
  checkText('event_id', entry.event_id, STORE_LIMITS.maxIdentifierBytes);
  if (!KINDS.has(entry.kind)) throw invalid('activity kind is unknown');
  checkStatus('activity run_status', entry.run_status);
  checkText('occurred_at', entry.occurred_at, 64);
  if (entry.vertex_id !== undefined) checkText('vertex_id', entry.vertex_id, STORE_LIMITS.maxIdentifierBytes);
  if (entry.vertex_label !== undefined) checkText('vertex_label', entry.vertex_label, STORE_LIMITS.maxIdentifierBytes);
  if (entry.completed_vertices !== undefined) checkCounter('completed_vertices', entry.completed_vertices, 0);
  if (entry.total_vertices !== undefined) checkCounter('total_vertices', entry.total_vertices, 0);
  if (entry.message !== undefined) checkText('message', entry.message, STORE_LIMITS.maxMessageBytes, true);
}

/** Checks a commit's patch, checkpoint and activities (not its compare-and-swap, which needs the stored row). */
export function checkCommit(commit: Commit): void {
  checkText('run_id', commit.run_id, STORE_LIMITS.maxIdentifierBytes);
  checkCounter('expected_record_revision', commit.expected_record_revision, 0);
  const p = commit.patch;
  if (p.status !== undefined) checkStatus('status', p.status);
  if (p.status_summary !== undefined) checkText('status_summary', p.status_summary, STORE_LIMITS.maxSummaryBytes, true);
  if (p.cancel_requested !== undefined && typeof p.cancel_requested !== 'boolean') {
    throw invalid('cancel_requested must be a boolean');
  }
  if (p.artifacts !== undefined) checkArtifacts(p.artifacts);
  if (p.interrupt !== undefined) checkInterrupt(p.interrupt);
  if (p.definition_version !== undefined) {
    checkText('definition_version', p.definition_version, STORE_LIMITS.maxIdentifierBytes);
  }
  checkText('updated_at', p.updated_at, 64);
  if (commit.reopen !== undefined && commit.reopen !== true) throw invalid('reopen must be true when present');
  if (commit.checkpoint !== undefined) {
    checkCounter('checkpoint revision', commit.checkpoint.revision, 0);
    checkText('checkpoint created_at', commit.checkpoint.created_at, 64);
  }
  if (commit.lease !== undefined) checkLease(commit.lease.worker_id, commit.lease.lease_ms);
  const activities = commit.activities ?? [];
  if (activities.length > STORE_LIMITS.maxActivitiesPerCommit) {
    throw invalid(`more than ${STORE_LIMITS.maxActivitiesPerCommit} activities in one commit`);
  }
  for (const entry of activities) checkActivity(entry);
}

/** Checks the arguments of RunStore.unseededRuns. */
export function checkUnseededQuery(created_before: string, limit: number): void {
  checkText('created_before', created_before, 64);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) throw invalid('limit must be an integer 1..100');
}

/** Checks the arguments of RunStore.requestCancel. */
export function checkCancelRequest(run_id: string, reason: string, updated_at: string): void {
  checkText('run_id', run_id, STORE_LIMITS.maxIdentifierBytes);
  checkText('reason', reason, STORE_LIMITS.maxSummaryBytes, true);
  checkText('updated_at', updated_at, 64);
}

/** Checks a history page request; `after_event_id` needs `after_revision`. */
export function checkHistoryQuery(query: HistoryQuery): void {
  checkCounter('limit', query.limit, 1);
  if (query.limit > STORE_LIMITS.maxPageLimit) throw invalid(`limit exceeds ${STORE_LIMITS.maxPageLimit}`);
  if (query.after_revision !== undefined) checkCounter('after_revision', query.after_revision, 0);
  if (query.after_event_id !== undefined) {
    if (query.after_revision === undefined) throw invalid('after_event_id requires after_revision');
    checkText('after_event_id', query.after_event_id, STORE_LIMITS.maxIdentifierBytes);
  }
}

/** Checks a list page request. */
export function checkListQuery(query: ListQuery): void {
  checkCounter('limit', query.limit, 1);
  if (query.limit > STORE_LIMITS.maxPageLimit) throw invalid(`limit exceeds ${STORE_LIMITS.maxPageLimit}`);
  if (query.after_seq !== undefined) {
    if (!Number.isSafeInteger(query.after_seq) || query.after_seq < 0)
      throw invalid('after_seq must be an integer >= 0');
  }
}

/** Checks a session page request. */
export function checkSessionQuery(query: SessionQuery): void {
  checkCounter('limit', query.limit, 1);
  if (query.limit > STORE_LIMITS.maxSessionPageLimit)
    throw invalid(`limit exceeds ${STORE_LIMITS.maxSessionPageLimit}`);
  if (query.after_session_id !== undefined)
    checkText('after_session_id', query.after_session_id, STORE_LIMITS.maxIdentifierBytes);
  if (query.session_id !== undefined) checkText('session_id', query.session_id, STORE_LIMITS.maxIdentifierBytes);
}

/** Checks a checkpoint lookup by revision. */
export function checkRevision(run_id: string, revision: number): void {
  checkText('run_id', run_id, STORE_LIMITS.maxIdentifierBytes);
  checkCounter('revision', revision, 0);
}

/** Checks a flow name and version used as a query. */
export function checkDefinitionKey(name: string, version: string): void {
  checkText('definition_name', name, STORE_LIMITS.maxIdentifierBytes);
  checkText('definition_version', version, STORE_LIMITS.maxIdentifierBytes);
}

/** Checks lease arguments shared by claim and renew. */
export function checkLease(workerId: string, leaseMs: number): void {
  checkText('worker_id', workerId, STORE_LIMITS.maxIdentifierBytes);
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1) throw invalid('lease_ms must be a positive integer');
}

/** Checks the ids a claim must skip. */
export function checkExclude(exclude: readonly string[]): void {
  const list: unknown = exclude;
  if (!Array.isArray(list)) throw invalid('exclude must be an array');
  checkBatch('exclude', exclude.length);
  for (const id of exclude) checkText('excluded run_id', id, STORE_LIMITS.maxIdentifierBytes);
}

/** Checks a claim/renew batch size. */
export function checkBatch(field: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0 || n > STORE_LIMITS.maxPageLimit) {
    throw invalid(`${field} must be an integer 0..${STORE_LIMITS.maxPageLimit}`);
  }
}
