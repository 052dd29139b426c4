/**
 * The store interfaces behind durable runs, split by role: the run ledger, the queue, the read-only insights, and
 * RunStore, their intersection. Two backends implement RunStore (SQLite: the embedded default; PostgreSQL: several
 * workers on one database) and one conformance suite (test/runs/store/store-conformance*.ts) proves both.
 *
 * Every write that changes a run goes through `commit`, which is atomic: record compare-and-swap, optional checkpoint
 * compare-and-append, and activity appends happen together or not at all.
 */
import type { JsonObject } from '../../core/json.js';

export const RunStatus = {
  Pending: 'pending',
  Running: 'running',
  Interrupted: 'interrupted',
  Completed: 'completed',
  Cancelled: 'cancelled',
  Failed: 'failed',
} as const;
export type RunStatus = (typeof RunStatus)[keyof typeof RunStatus];

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set([
  RunStatus.Completed,
  RunStatus.Cancelled,
  RunStatus.Failed,
]);

export const ActivityKind = {
  RunStarted: 'run_started',
  VertexCompleted: 'vertex_completed',
  RunInterrupted: 'run_interrupted',
  RunResumed: 'run_resumed',
  RunCompleted: 'run_completed',
  RunCancelled: 'run_cancelled',
  RunFailed: 'run_failed',
} as const;
export type ActivityKind = (typeof ActivityKind)[keyof typeof ActivityKind];

export interface ArtifactDescriptor {
  readonly id: string;
  readonly kind: string;
  readonly digest: string;
  readonly size: number;
}

export interface ArtifactNamespace {
  readonly session_id: string;
  readonly run_id: string;
  /** '' | 'bootstrap' | 'parent' */
  readonly input_kind: '' | 'bootstrap' | 'parent';
  readonly input_session_id: string;
  readonly input_run_id: string;
}

/** Why an interrupted run is waiting. */
export interface InterruptInfo {
  /** `awaiting_input` (the flow called interrupt()) or `task_failed` (retries exhausted). */
  readonly reason: 'awaiting_input' | 'task_failed';
  readonly vertex: string;
  readonly message?: string;
}

export interface RunRecord {
  readonly session_id: string;
  readonly run_id: string;
  readonly definition_name: string;
  readonly definition_version: string;
  readonly parent_run_id: string | null;
  /** SHA-256 (hex) of the RFC 8785 canonical input; the key into the input store. */
  readonly input_sha256: string;
  readonly idempotency_key: string | null;
  readonly status: RunStatus;
  /** ≤1024 bytes; '' when none. */
  readonly status_summary: string;
  readonly cancel_requested: boolean;
  /** -1 until the seed checkpoint (revision 0) is durable. */
  readonly checkpoint_revision: number;
  /** Number of activity entries written so far. */
  readonly activity_cursor: number;
  readonly artifacts: readonly ArtifactDescriptor[];
  readonly artifact_namespace: ArtifactNamespace;
  readonly interrupt: InterruptInfo | null;
  /** Monotonic creation order within the store; the opaque list cursor is derived from it. */
  readonly created_seq: number;
  /** RFC 3339 UTC with milliseconds. */
  readonly created_at: string;
  readonly updated_at: string;
  /** Compare-and-swap counter; starts at 0 and only grows. */
  readonly record_revision: number;
}

export type NewRunRecord = Omit<RunRecord, 'created_seq' | 'record_revision'>;

export interface Checkpoint {
  readonly run_id: string;
  readonly revision: number;
  readonly state: JsonObject;
  readonly created_at: string;
}

export interface ActivityEntry {
  readonly run_id: string;
  readonly revision: number;
  /** Deterministic UUID (v5-style) over session, run, kind, revision, vertex and ordinal. */
  readonly event_id: string;
  /** Position within the revision (0-based); orders entries of one revision. */
  readonly ordinal: number;
  readonly kind: ActivityKind;
  readonly run_status: RunStatus;
  readonly occurred_at: string;
  readonly vertex_id?: string;
  readonly vertex_label?: string;
  readonly completed_vertices?: number;
  readonly total_vertices?: number;
  readonly message?: string;
}

/** Fields of a run record a commit may change. */
export interface RunPatch {
  readonly status?: RunStatus;
  readonly status_summary?: string;
  readonly cancel_requested?: boolean;
  readonly artifacts?: readonly ArtifactDescriptor[];
  readonly interrupt?: InterruptInfo | null;
  /**
   * Re-pins the run to another version of its flow. Only an explicit operator upgrade (`upgradeRun`, `rimthan runs
   * upgrade`) sets it, in the one commit that also appends the upgraded checkpoint; no engine step changes a run's flow.
   */
  readonly definition_version?: string;
  readonly updated_at: string;
}

/** A lease taken in the same transaction as a commit (a seed its own worker executes at once). */
export interface CommitLease {
  readonly worker_id: string;
  readonly lease_ms: number;
}

export interface Commit {
  readonly run_id: string;
  /** The record revision the writer read; the commit fails with `conflict` when it moved. */
  readonly expected_record_revision: number;
  readonly patch: RunPatch;
  /** Appended only when its revision is exactly latest + 1 (or 0 for the seed); else `conflict`. */
  readonly checkpoint?: Omit<Checkpoint, 'run_id'>;
  /** Appended in order; an entry whose event_id already exists is skipped (idempotent publish). */
  readonly activities?: readonly Omit<ActivityEntry, 'run_id'>[];
  /**
   * Takes the run's lease for `worker_id` in the same transaction, so no separate claim write is needed. Only for a
   * commit that leaves the run `running` (else `invalid_arguments`); refused with `conflict` while another worker
   * holds an unexpired lease.
   */
  readonly lease?: CommitLease;
  /**
   * An operator restart (`restartRun`, `rimthan runs restart`): the one commit allowed to take a `failed` run back to
   * `running`. Every other commit keeps failed terminal. Cancelled and completed runs are never reopened.
   */
  readonly reopen?: true;
}

export interface HistoryQuery {
  readonly after_revision?: number;
  /** Only with after_revision: continue inside that revision after this event. */
  readonly after_event_id?: string;
  readonly limit: number;
}

export interface ListQuery {
  /** Exclusive lower bound on created_seq. */
  readonly after_seq?: number;
  readonly limit: number;
}

/** A page of the store's sessions, in session id order (byte order, the same on both backends). */
export interface SessionQuery {
  /** Exclusive lower bound on session_id: the last session of the previous page. */
  readonly after_session_id?: string;
  /** Only this session (a caller's own view); with `after_session_id`, only when it sorts after it. */
  readonly session_id?: string;
  /** 1..STORE_LIMITS.maxSessionPageLimit. */
  readonly limit: number;
}

/** One session of the store: how many runs it holds, in each status, and when one of them last changed. */
export interface SessionSummary {
  readonly session_id: string;
  readonly runs: number;
  /** Every status is present (0 when none). */
  readonly by_status: Record<RunStatus, number>;
  /** The latest `updated_at` of its runs (RFC 3339 UTC). */
  readonly last_activity: string;
}

/** A flow version that non-terminal runs (pending, running, interrupted) are pinned to. */
export interface DefinitionUse {
  readonly definition_name: string;
  readonly definition_version: string;
  /** Non-terminal runs pinned to it. */
  readonly runs: number;
  /** The oldest of them (at most 10), to name in a refusal. */
  readonly run_ids: readonly string[];
}

/**
 * Optional hooks for metrics (commit latency, lease takeovers). Called synchronously on the store's write path: keep
 * them cheap; a hook that throws is ignored.
 */
export interface StoreObserver {
  /** A batch of commits became durable (`ok`) or failed: how many commits it carried and how long it took. */
  commitBatch?(event: { readonly writes: number; readonly durationMs: number; readonly ok: boolean }): void;
  /** A claim leased `runs` runs; `takeovers` of them were held by another worker whose lease had expired. */
  claimed?(event: { readonly runs: number; readonly takeovers: number }): void;
  /** A prune deleted `runs` finished runs of the flow `definition_name` (retention). */
  pruned?(event: { readonly definition_name: string; readonly runs: number }): void;
}

/** Thrown by stores for an expected refusal (compare-and-swap lost, duplicate id). */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
  constructor(message: string) {
    super(message);
  }
}

/**
 * The run ledger: the durable record of runs (records, canonical inputs, checkpoints, activity history) and the one
 * atomic write that changes them. Everything that executes, starts, resumes, cancels or repairs a run uses it.
 */
export interface RunLedger {
  /** Stores canonical input bytes under their digest; storing the same digest again is a no-op. */
  putInput(sha256: string, canonical: string): Promise<void>;
  getInput(sha256: string): Promise<string | undefined>;
  /**
   * Creates a run (checkpoint_revision must be -1 and activity_cursor 0); duplicate run_id or
   * (session_id, idempotency_key) → StoreConflictError; over-limit fields → RimthanError('invalid_arguments').
   * With `seed` (a commit on the new record: expected_record_revision 0), the record and the seed are written in ONE
   * atomic, durable write and the seeded record is returned; a refusal of either writes neither (a start costs one
   * synced commit instead of two).
   */
  createRun(record: NewRunRecord, seed?: Commit): Promise<RunRecord>;
  /** Session-scoped lookup: a run of another session is `undefined`, exactly like a missing one. */
  getRun(session_id: string, run_id: string): Promise<RunRecord | undefined>;
  /** Unscoped lookup for the supervisor. */
  getRunById(run_id: string): Promise<RunRecord | undefined>;
  findByIdempotencyKey(session_id: string, key: string): Promise<RunRecord | undefined>;
  /**
   * The atomic write. Returns the updated record (record_revision + 1). Unknown run → RimthanError('not_found');
   * lost compare-and-swap, checkpoint gap or a transition the status machine forbids → StoreConflictError.
   *
   * Ordering: commits of one run that one store object receives are applied in the order they were called, even when
   * the caller does not wait for one before issuing the next (the executor pipelines vertex commits this way). A
   * commit that leaves the run in any status other than `running` also clears its lease (a lease only means something
   * for a running run), so the worker needs no separate release write.
   */
  commit(commit: Commit): Promise<RunRecord>;
  /**
   * Records that the run should be cancelled, without a compare-and-swap against the caller's read: in one write,
   * a run that is not terminal gets `cancel_requested` set, `reason` as its summary and its record revision bumped
   * (so the worker executing it loses its next compare-and-swap, rereads and writes the terminal checkpoint itself,
   * with that reason). Returns the record after the write; a terminal run, or one whose request is already recorded,
   * is returned unchanged; unknown → undefined.
   */
  requestCancel(run_id: string, reason: string, updated_at: string): Promise<RunRecord | undefined>;
  latestCheckpoint(run_id: string): Promise<Checkpoint | undefined>;
  /** One checkpoint by revision (restart from a step reads an earlier one); undefined when there is none. */
  checkpointAt(run_id: string, revision: number): Promise<Checkpoint | undefined>;
  /**
   * Entries ordered by (revision, ordinal), strictly after the cursor; cost O(limit). An after_event_id that is not in
   * after_revision → RimthanError('invalid_arguments'), so a cursor never silently skips entries.
   */
  history(run_id: string, query: HistoryQuery): Promise<ActivityEntry[]>;
}

/**
 * The queue: which runs need a worker and who holds them. Claims and leases, wake-ups between workers, and the
 * adoption reads a worker makes before taking work (starts never acknowledged, runs pinned to a flow version).
 */
export interface RunQueue {
  /**
   * Leases: a worker claims up to `limit` seeded runs in status `running` that nobody else holds (or whose lease
   * expired); runs it already holds are not returned again (renew those). SQLite measures leases with the process
   * clock, PostgreSQL with the database's `now()`.
   *
   * Claiming is a fencing write: it bumps each claimed run's record_revision, and the returned record carries the
   * revision this claim produced. The executor uses that revision as the epoch of its idempotency keys (unique per
   * claim, durable before any vertex runs) and every writer still holding an older revision is refused.
   * `exclude` (at most 1000 ids) names runs the worker does not want now (it lacks their flow definition).
   */
  claimRuns(worker_id: string, lease_ms: number, limit: number, exclude?: readonly string[]): Promise<RunRecord[]>;
  /** Extends the worker's leases; returns the run ids it still holds. */
  renewLeases(worker_id: string, run_ids: readonly string[], lease_ms: number): Promise<string[]>;
  releaseLease(worker_id: string, run_id: string): Promise<void>;
  /**
   * Wake-ups: `notify` tells every worker on this store (PostgreSQL: NOTIFY on a per-schema channel; SQLite: listeners
   * of this store object) that runs may need attention. Wake-ups can be lost while reconnecting: workers also poll.
   */
  notify(run_id: string): Promise<void>;
  onNotify(listener: (run_id: string) => void): () => void;
  /**
   * Pending runs of any session that have no seed checkpoint and were created before `created_before` (an ISO
   * timestamp, compared with `created_at`), oldest first, at most `limit` (1..100): starts that were never acknowledged.
   */
  unseededRuns(created_before: string, limit: number): Promise<RunRecord[]>;
  /** Every flow version that non-terminal runs are pinned to, by name then version (the deploy check at start-up). */
  definitionsInUse(): Promise<DefinitionUse[]>;
  /** Non-terminal runs pinned to name@version, in creation order after `after_seq` (paged like listRuns). */
  runsOfDefinition(name: string, version: string, query: ListQuery): Promise<RunRecord[]>;
}

/**
 * The read-only insights the console, the CLI and the list tool use: pages of runs and sessions, counts by status.
 * Nothing here writes or takes part in executing a run.
 */
export interface RunInsights {
  /** Session page ordered by creation (created_seq ascending). */
  listRuns(session_id: string, query: ListQuery): Promise<RunRecord[]>;
  /**
   * The sessions that hold runs, with their run counts by status and last activity, ordered by session id (byte
   * order) after `after_session_id`, at most `limit`. Cost O(runs of the page's sessions), never a table scan.
   */
  listSessions(query: SessionQuery): Promise<SessionSummary[]>;
  /** How many runs are in each status (every session): for metrics and for checking a copied store. */
  statusCounts(): Promise<Record<RunStatus, number>>;
}

/** Latest instant a wait may name (ms since the epoch): a wait without a timeout parks until this. */
export const WAIT_FOREVER = 8_640_000_000_000_000;

/** A run parking itself: it stays `running`, drops its lease, and no claim takes it before `wait_until`. */
export interface RunPark {
  readonly run_id: string;
  /** The worker holding the lease; a park by anyone else is `stale`. */
  readonly worker_id: string;
  /** The record revision the worker holds; a park after another write (a cancel request) is `stale`. */
  readonly expected_record_revision: number;
  /** When a claim may take the run again (ms since the epoch; WAIT_FOREVER for none). */
  readonly wait_until: number;
  /** The event the run awaits: the one at `position` among the run's events of that name. */
  readonly event?: { readonly name: string; readonly position: number };
  /** The child run the run awaits (it wakes when the child ends). */
  readonly child?: string;
}

/**
 * How a park went: `parked`; `ready` (what it awaits is already there: the event was delivered or the child ended, so
 * nothing was written and the worker goes on); `stale` (the worker no longer holds the run at that revision).
 */
export type ParkOutcome = 'parked' | 'ready' | 'stale';

export interface RunEvent {
  readonly run_id: string;
  /** Caller-chosen id: a second event with the same id for the same run is a duplicate and is dropped. */
  readonly event_id: string;
  readonly name: string;
  readonly payload: JsonObject;
  readonly sent_at: string;
}

/** What sending an event did: kept (and the run woken if it awaits it), a duplicate id, a finished or unknown run. */
export type SendEventOutcome = 'delivered' | 'duplicate' | 'finished' | 'not_found';

/**
 * Durable waits: timers, events and child runs. A waiting run is parked (see RunPark): it holds no lease and no
 * worker's memory; a claim takes it back once its time comes, an event it awaits arrives, or a child it awaits ends.
 */
export interface RunWaits {
  /**
   * Parks a run its worker holds, in one write: drops the lease and records what it awaits. When the awaited event was
   * already delivered or the awaited child already ended, nothing is written and the answer is `ready`; the checks run
   * after the run is locked, so an event or a child ending at the same moment is never missed.
   */
  parkRun(park: RunPark): Promise<ParkOutcome>;
  /**
   * Keeps an event for a run (at most once per event id) and wakes the run when it is parked awaiting that name. Events
   * of one name are numbered in arrival order; a run consumes them in that order. A finished run takes no event.
   */
  sendEvent(event: RunEvent): Promise<SendEventOutcome>;
  /** The run's event of `name` at `position` (0-based, arrival order), if it has arrived. */
  eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined>;
  /** Wakes `parent_run_id` if it is parked awaiting `child_run_id` (the child ended). */
  wakeParent(parent_run_id: string, child_run_id: string): Promise<void>;
  /** The runs started with `parent_run_id` set to this run, in creation order (paged like listRuns). */
  childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]>;
  /** The earliest instant a parked run is due (ms since the epoch), or undefined when none waits on a timer. */
  nextWakeAt(): Promise<number | undefined>;
}

/**
 * A whole run store: every role plus its lifecycle. Both backends (SQLite, PostgreSQL) implement it and the conformance
 * suite (test/runs/store/store-conformance*.ts, organised by role) proves both; consumers ask only for the roles they
 * use.
 */
export interface RunStore
  extends RunLedger, RunQueue, RunInsights, RunWaits, RunConcurrency, RunRetention, RunSchedules {
  /** Creates the schema (migrations) and prepares statements. Idempotent across processes. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The slot a run of a limited flow asks for (see RunConcurrency): at most `limit` runs of the flow name with the same
 * `key` hold one at once. `key` is '' for a flow-wide limit, else 1..256 bytes; `limit` is an integer 1..10000.
 */
export interface ConcurrencySlot {
  readonly key: string;
  readonly limit: number;
}

/**
 * Concurrency limits per key (issue 22): runs of a flow that declares `concurrency` take a slot of their
 * (definition name, key) when they are seeded. A run holds its slot from admission until it is terminal (running,
 * parked on a wait or interrupted: it keeps it); a run that finds no free slot is seeded durably but stays `pending`
 * and unclaimable, waiting, until a promotion admits it, oldest first. Admission and promotion lock the key's row, so
 * the bound holds across every worker of one store. Runs of flows without a limit never touch this role.
 */
export interface RunConcurrency {
  /**
   * createRun with its seed for a run of a limited flow, in ONE atomic write that also decides its slot: the seed must
   * be a queued one (status `pending`, no lease). Admitted (a slot is free and no older run of the key waits): written
   * as the seed leaves it, claimable at once. Otherwise: written `pending` with the seed, waiting for a slot.
   */
  createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord>;
  /** The same for the seed of an existing, unseeded pending run (a start retried after its seed was lost). */
  seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord>;
  /**
   * Admits waiting runs of the run's (definition name, key) while slots are free, oldest first; returns their ids
   * (claimable now). A run without a slot key (an unlimited flow) promotes nothing.
   */
  promoteAfter(run_id: string): Promise<string[]>;
  /** The sweep: promotes for up to `limit` (1..1000) keys that have waiting runs; returns the ids admitted. */
  promoteWaiting(limit: number): Promise<string[]>;
}

/** Most runs one prune deletes: one transaction, so a prune never holds its locks for long. */
export const MAX_PRUNE_BATCH = 500;

/**
 * Which finished runs a prune deletes. Only terminal runs (completed, cancelled, failed) are ever deleted, never one
 * with a child that is not terminal nor a child whose parent is not terminal (a parked parent may still read it). At
 * least one of `finished_before` and `keep_last` is required.
 */
export interface PruneQuery {
  /** Only runs of this flow (every version); absent: every flow, `keep_last` then counting per flow. */
  readonly definition_name?: string;
  /** Only runs that finished (their last `updated_at`) strictly before this instant (RFC 3339). */
  readonly finished_before?: string;
  /** Keep each flow's N most recently finished runs whatever their age (ties at the Nth are kept too). 0..10^9. */
  readonly keep_last?: number;
  /** Most runs this call deletes, 1..MAX_PRUNE_BATCH: one transaction per flow touched. */
  readonly limit: number;
  /** Count what is due (every due run, `limit` ignored) and delete nothing. */
  readonly dry_run?: boolean;
}

export interface PruneResult {
  /** Runs deleted (a dry run: due). */
  readonly deleted: number;
  /** The same, per flow name (flows with none are absent). */
  readonly by_definition: Readonly<Record<string, number>>;
  /** Canonical inputs deleted because no remaining run referred to them (0 for a dry run). */
  readonly inputs_deleted: number;
}

/**
 * Retention: deletes finished runs with everything that is theirs (checkpoints, activity history, events, the
 * idempotency key on the record, and their canonical input once no remaining run refers to it).
 */
export interface RunRetention {
  /** See PruneQuery. Deletes in order of finishing (oldest first); a run that stops being due meanwhile is kept. */
  pruneRuns(query: PruneQuery): Promise<PruneResult>;
  /** The flow names that have finished runs, in byte order (at most 10 000). */
  finishedDefinitions(): Promise<string[]>;
}

/**
 * A flow schedule as declared by the flow version that owns it (the latest registered version of its name): what a
 * worker writes when it syncs its catalog's schedules at start.
 */
export interface ScheduleDeclaration {
  readonly definition_name: string;
  readonly schedule_id: string;
  readonly definition_version: string;
  readonly cron: string;
  readonly timezone: string;
  readonly overlap: 'skip' | 'buffer_one' | 'allow';
  readonly catch_up: 'none' | 'latest' | 'all';
  /** The first tick after the sync (ms since the epoch): used for a new schedule, or when its cron or zone changed. */
  readonly next_tick_at: number;
}

/** A schedule's durable state: its declaration, where it stands, and what its ticks did. */
export interface ScheduleRecord extends ScheduleDeclaration {
  /** A tick taken to start a run whose start is not yet recorded (any worker finishes it, idempotently). */
  readonly pending_tick_at: number | null;
  /** `buffer_one`: the tick waiting for the previous run to end. */
  readonly buffered_tick_at: number | null;
  /** The tick of the last run started, and that run. */
  readonly last_tick_at: number | null;
  readonly last_run_id: string | null;
  readonly started: number;
  readonly skipped: number;
  readonly missed: number;
  /** Ticks that started nothing because their input was refused (see last_error). */
  readonly failed: number;
  /** Why the last failed tick failed (a code and the schema keyword, never the input); '' when none. */
  readonly last_error: string;
  /** Compare-and-swap counter: every change bumps it. */
  readonly revision: number;
  /** RFC 3339 UTC. */
  readonly updated_at: string;
}

/** A compare-and-swap on one schedule row: fields to set and counters to add, at the revision the caller read. */
export interface ScheduleUpdate {
  readonly definition_name: string;
  readonly schedule_id: string;
  readonly expected_revision: number;
  readonly set: {
    readonly next_tick_at?: number;
    readonly pending_tick_at?: number | null;
    readonly buffered_tick_at?: number | null;
    readonly last_tick_at?: number | null;
    readonly last_run_id?: string | null;
    readonly last_error?: string;
  };
  readonly add?: {
    readonly started?: number;
    readonly skipped?: number;
    readonly missed?: number;
    readonly failed?: number;
  };
  readonly updated_at: string;
}

/** A page of schedules, ordered by (definition_name, schedule_id). */
export interface ScheduleQuery {
  /** Exclusive lower bound: the last (definition_name, schedule_id) of the previous page. */
  readonly after?: { readonly definition_name: string; readonly schedule_id: string };
  /** 1..1000. */
  readonly limit: number;
}

/**
 * Durable flow schedules (one row per flow name and schedule id). Every change is a compare-and-swap on the row's
 * revision, so a tick is taken once across all workers: `next_tick_at` moves only once per tick, and the run a tick
 * starts carries an idempotency key derived from the schedule and the tick, so a crash between taking and starting
 * never makes a second run.
 */
export interface RunSchedules {
  /**
   * Makes the schedules of `definition_name` exactly `declared` in one write: a new one is inserted, a changed one is
   * updated (its next tick replaced only when its cron or zone changed; revision bumped only when anything changed),
   * one no longer declared is deleted. Returns the name's schedules after the write.
   */
  syncSchedules(
    definition_name: string,
    declared: readonly ScheduleDeclaration[],
    updated_at: string,
  ): Promise<ScheduleRecord[]>;
  getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined>;
  listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]>;
  /** Applies the update when the row is still at `expected_revision`; the new row, or undefined (lost, or gone). */
  updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined>;
}
