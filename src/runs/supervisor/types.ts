/** The supervisor's public surface: options, and the session-bound controller the run tools drive. */
import type { Clock } from '../../core/clock.js';
import type { JsonObject } from '../../core/json.js';
import type { ErrorContext, WarmStart } from '../executor/run-execution.js';
import type { RunTracer } from '../executor/run-trace.js';
import type { FlowCatalog } from '../flow/catalog.js';
import type { RemovedVersions } from '../operator/deploy-check.js';
import type {
  ActivityEntry,
  CommitLease,
  HistoryQuery,
  NewRunRecord,
  RunConcurrency,
  RunLedger,
  RunQueue,
  RunRecord,
  RunWaits,
} from '../store/types.js';

/**
 * The host hook that may bind the artifact namespace of a new run. It may change only the five
 * `artifact_namespace` fields; any other difference refuses the start and nothing is created.
 */
export type PrepareRun = (record: NewRunRecord) => NewRunRecord | Promise<NewRunRecord>;

/** What starting a new run needs from its caller (a run tool decodes it from its arguments). */
export interface StartRequest {
  readonly definitionName: string;
  readonly definitionVersion: string;
  /** The caller's input object; canonicalised (RFC 8785) and validated once, against the resolved definition. */
  readonly input: JsonObject;
  readonly parentRunId: string | null;
  readonly idempotencyKey: string | null;
  /** Mints the new run's id; undefined when the minted value is not a nonzero UUID. Called only to create a run. */
  readonly mintRunId: () => string | undefined;
  /** The creation time of the new record (RFC 3339 UTC). */
  readonly now: () => string;
  readonly prepareRun?: PrepareRun | undefined;
}

/** Why a start was refused (nothing was created, or a run that can never start was failed durably). */
export const StartRefusal = {
  /** No definition with this exact name and version. */
  UnknownDefinition: 'unknown_definition',
  /** The input cannot be canonicalised, breaks the input schema, or yields no initial state (`message` says which). */
  InvalidInput: 'invalid_input',
  /** No parent run with this id in the session. */
  ParentNotFound: 'parent_not_found',
  /** The idempotency key was used with another definition, input or parent. */
  IdempotencyConflict: 'idempotency_conflict',
  /** The run id generator returned something that is not a nonzero UUID. */
  InvalidRunId: 'invalid_run_id',
  /** The PrepareRun hook threw. */
  PrepareFailed: 'prepare_failed',
  /** The PrepareRun hook changed what it may not change (`message` names it). */
  PrepareRefused: 'prepare_refused',
} as const;
export type StartRefusal = (typeof StartRefusal)[keyof typeof StartRefusal];

/**
 * Where a start failed on a dependency: `create` (the create-and-seed write was refused as a conflict not explained
 * by the idempotency key), `seed` (the create-and-seed write or the seed failed otherwise), `other` (any other step).
 */
/** Where a start failed: the definition's own input check (`definition`), the durable create, the seed, elsewhere. */
export type StartStage = 'definition' | 'create' | 'seed' | 'other';

/** The one answer of a start. */
export type StartOutcome =
  | { readonly kind: 'started'; readonly run: RunRecord }
  | { readonly kind: 'replayed'; readonly run: RunRecord }
  | { readonly kind: 'refused'; readonly code: StartRefusal; readonly message?: string }
  | { readonly kind: 'failed'; readonly stage: StartStage; readonly runId: string; readonly error: unknown };

export interface SupervisorOptions {
  /** An opened store (its ledger, queue, waits and concurrency roles); the supervisor never opens or closes it. */
  readonly store: RunLedger & RunQueue & RunWaits & RunConcurrency;
  readonly catalog: FlowCatalog;
  /** Lease owner name of this worker (default: a random UUID). At most 256 bytes. */
  readonly workerId?: string;
  readonly clock?: Clock;
  /** Lease length (default 30 000 ms, at least 50). Leases are renewed every leaseMs/3; expiry is polled every leaseMs/2. */
  readonly leaseMs?: number;
  /**
   * Runs executed at once by this worker (default 16, 1..256; chosen from the PostgreSQL closed-loop benchmark: 4 slots
   * left a 64-client load queued behind claims, 64 slots let executions crowd out the starts on 2 cores). Starts never
   * wait for a free slot: beyond it a start is acknowledged with the run durably `pending` (admission control).
   */
  readonly concurrency?: number;
  /** How long stop() lets vertices in flight finish before aborting them (default min(leaseMs/2, 10 000) ms). */
  readonly stopGraceMs?: number;
  /**
   * Vertex commits one execution may have in flight (default 16, 1..256). Above 1 the next vertex starts as soon as
   * the previous vertex's commit is issued, and commits issued in the same event-loop turn share one transaction; 1
   * makes every vertex commit durable before the next vertex starts. After a crash at most this many completed but
   * not yet durable vertices run again (with new idempotency keys). See docs/architecture.md, "Durability".
   */
  readonly pipelineDepth?: number;
  /**
   * A claimed run whose pinned flow version this worker's catalog lacks (a rolling deploy): `defer` (default) leaves
   * it untouched — the lease is released, this worker skips the run for a back-off period (1 s doubling to 5 min) and
   * reports it through `onError` (phase `definition`, code `unknown_definition`) so another worker can run it; `fail`
   * ends it as `failed` at once (for a worker whose catalog is known to be the only one).
   */
  readonly unknownDefinition?: 'defer' | 'fail';
  /**
   * A pending run with no seed checkpoint older than this (default 600 000 ms = 10 minutes) is an abandoned start (the
   * process died between writing the record and the seed): it is failed, checked when the supervisor starts and then
   * every min(leaseMs, this) ms. `false` never fails one.
   */
  readonly abandonedStartMs?: number | false;
  /**
   * The deploy check when the supervisor starts: unfinished runs pinned to a flow version this catalog lacks make
   * `start()` throw RimthanError('definition_in_use') naming them (`refuse`, the default); `fail` fails those runs with
   * a reason that says so and starts; `ignore` starts and leaves them to workers that have the version (rolling
   * deploys where older workers still run them; see unknownDefinition).
   */
  readonly removedVersions?: RemovedVersions;
  /** Background faults (store errors, vertex exceptions). Local diagnosis only: never forward them to a client. */
  readonly onError?: (error: unknown, where: ErrorContext) => void;
  /** Follows each execution of a run and its vertices (tracing; executor/run-trace.ts). */
  readonly tracer?: RunTracer;
  /**
   * Retention of finished runs (retention-sweep.ts): a running supervisor deletes the finished runs due under these
   * rules every `intervalMs`, batch after batch. None by default: every finished run is kept. Needs a store with the
   * RunRetention role (both stores have it).
   */
  readonly retention?: RetentionOptions;
  /** Told after a retention sweep, per flow that lost runs: its name and how many (never anything of a run). */
  readonly onPruned?: (flow: string, runs: number) => void;
  /**
   * Longest sleep of the scheduler between two looks at the flow schedules (default 5 000 ms, 10..3 600 000): the
   * fallback behind its timer, and how soon a `buffer_one` tick starts after the previous run ended.
   */
  readonly schedulePollMs?: number;
}

/**
 * How long one flow's finished runs are kept: by age, by count, or both (then a run goes only when both let it: it
 * finished more than maxAgeMs ago and is not among the keepLast most recently finished).
 */
export interface RetentionRule {
  /** Delete runs finished more than this long ago (ms, 1..10^13). */
  readonly maxAgeMs?: number;
  /** Keep at least the N most recently finished runs whatever their age (0..10^9); alone, delete the older ones. */
  readonly keepLast?: number;
}

export interface RetentionOptions {
  /** The rule of every flow not named in `flows`; absent: those flows are kept forever. */
  readonly default?: RetentionRule;
  /** Rules per flow name (every version); `{}` keeps that flow's runs forever, whatever the default. */
  readonly flows?: Readonly<Record<string, RetentionRule>>;
  /** How often a running supervisor sweeps (default 60 000 ms, 10..2 147 483 647). */
  readonly intervalMs?: number;
}

/** The run operations of one session; a run of another session is indistinguishable from a missing one. */
export interface SessionController {
  readonly sessionId: string;
  /**
   * Seeds a pending run (checkpoint revision 0, run_started, status running) and returns once that is durable; the
   * execution itself is queued. A run that is already seeded is returned as it is.
   * Errors (RimthanError code): not_found, conflict, unknown_definition, invalid_input, unavailable.
   */
  start(runId: string): Promise<RunRecord>;
  /**
   * Starts a new run: the one owner of a start (see start-request.ts). Resolves the exact definition and validates the
   * input once, checks the parent, replays an idempotency key, builds the record (PrepareRun applied), stores the
   * input and writes record and seed in one durable write. Returns `started`, `replayed` or `refused` (with a code);
   * a dependency that failed is `failed` with the stage it failed in. Never throws for a request it can answer.
   */
  startNew(request: StartRequest): Promise<StartOutcome>;
  /**
   * Continues an interrupted run at its paused vertex with a resume payload validated against the pinned definition's
   * resume schema. Errors, in the order checked: not_found, unknown_definition, resume_not_supported, conflict,
   * invalid_input; unavailable.
   */
  resume(runId: string, resume: JsonObject): Promise<RunRecord>;
  /**
   * Cancels a run (reason at most 512 bytes; blank = "cancel requested"). Already cancelled → idempotent, nothing
   * written. Errors: not_found, conflict (completed or failed), invalid_arguments.
   */
  cancel(runId: string, reason: string): Promise<{ record: RunRecord; idempotent: boolean }>;
  /** A page of activity entries read straight from the store (never waits for a running run); undefined = not found. */
  history(runId: string, query: HistoryQuery): Promise<ActivityEntry[] | undefined>;
}

/** An execution slot reserved on this worker for a run being seeded (the seed takes the lease in its commit). */
export interface LocalSlot {
  /** The lease the seed commit takes for this worker. */
  readonly lease: CommitLease;
  /** Starts executing the seeded run here (or releases its lease when the worker stopped meanwhile). */
  launch(seeded: RunRecord, warm: WarmStart): void;
  /** Gives the slot back without launching (the seed was not written). */
  cancel(): void;
}

/** What the session commands need from the supervisor (internal). */
export interface EngineHandle {
  readonly store: RunLedger & RunQueue & RunWaits & RunConcurrency;
  readonly catalog: FlowCatalog;
  readonly clock: Clock;
  /** Throws RimthanError('unavailable') unless the supervisor is started and not stopping. */
  assertAccepting(): void;
  /** Wakes this worker's claim loop and tells the other workers on the store that the run needs attention. */
  announce(runId: string): void;
  /** True while this worker executes the run. */
  isLocal(runId: string): boolean;
  /**
   * Halts this worker's execution of the run for cancellation (it appends the terminal checkpoint with `reason`) and
   * waits until it ended; false if none.
   */
  cancelLocal(runId: string, reason: string): Promise<boolean>;
  /** Reserves a free execution slot of this worker; undefined when all are busy (the run then waits for a claim). */
  reserveSlot(): LocalSlot | undefined;
}
