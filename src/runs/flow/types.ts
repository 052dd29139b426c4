/**
 * The authoring types of a code-defined flow: a graph of vertices (tasks) joined by static or conditional edges. A flow
 * is declared with `defineFlow` and checked once by `FlowCatalog.register`.
 */
import type { JsonObject, JsonValue } from '../../core/json.js';

/** How often and how patiently a failing vertex is retried inside one execution. */
export interface RetryPolicy {
  /** Total tries, including the first (1 = no retry). */
  readonly attempts: number;
  /** Delay before the second try. */
  readonly backoffMs: number;
  /** Growth of the delay per further try (default 2). */
  readonly factor?: number;
  /** Upper bound of one delay (default: no bound beyond the policy limit). */
  readonly maxBackoffMs?: number;
  /**
   * Decides whether a failed try is worth another (given what the try threw; a timeout is an Error named `TimeoutError`).
   * False ends the vertex's tries at once; a predicate that throws counts as false. Default: every error retries.
   */
  readonly retryable?: (error: unknown) => boolean;
}

/** The failure an error-route handler receives: a code and a message, never a stack. */
export interface VertexFailure {
  /** The vertex whose tries were spent. */
  readonly vertex: string;
  /** The thrown error's own `code` (a short snake_case word), else `timeout` or `vertex_failed`. */
  readonly code: string;
  /** The thrown error's message (at most 1024 bytes); it stays inside the run (checkpoint), never in history. */
  readonly message: string;
}

/**
 * Where control goes after a vertex: a vertex id, several (parallel branches: they run concurrently as the next step
 * and their updates merge at the barrier after it), or a function of the merged state (a conditional edge) returning
 * one id, several, or undefined (no successor).
 */
export type NextSpec<S extends JsonObject> =
  string | readonly string[] | ((state: Readonly<S>) => string | readonly string[] | undefined);

/**
 * Combines two writes of one state key in one parallel step: `current` is the value so far (the state before the step,
 * then each earlier branch's write folded in, in the step's deterministic branch order), `update` the next write.
 */
export type Reducer<V> = (current: V | undefined, update: V) => V;

/** What a vertex sees while it runs. */
export interface VertexContext<S extends JsonObject, I extends JsonObject = JsonObject> {
  /** The flow state as of the latest checkpoint (frozen; return a partial update instead of mutating). */
  readonly state: Readonly<S>;
  /** The run input, exactly as validated at start. */
  readonly input: Readonly<I>;
  /** The resume payload when the run was resumed into this vertex; otherwise undefined. */
  readonly resume: Readonly<JsonObject> | undefined;
  readonly runId: string;
  readonly vertex: string;
  /** 1-based try number of this vertex within the current execution (for logging and backoff decisions). */
  readonly attempt: number;
  /**
   * Deterministic key for side effects: SHA-256 of `${run_id}:${vertex}:${attempt_id}`, where attempt_id is unique per
   * try: the epoch of the execution (the record revision its durable claim or seed produced) × 2^21 + the try's
   * sequence number within the execution. A retry or a re-execution after a crash gets a new key; the same try always
   * has the same key, and the checkpoint records the attempt id of the try that produced it.
   */
  readonly idempotencyKey: string;
  /** Aborted on timeout, cancellation, lease loss or supervisor shutdown. */
  readonly signal: AbortSignal;
  /** Pauses the run as `interrupted` (reason awaiting_input); the vertex runs again on resume with `resume` set. */
  readonly interrupt: (message?: string) => never;
  /**
   * Durable timer: parks the run until `ms` from the first call have passed. The run holds no worker slot meanwhile,
   * stays `running`, and wakes on any worker, after restarts too; a cancel wakes it into `cancelled`. When it wakes,
   * the vertex runs again from its start: every wait it already passed answers at once (see the flows guide), so code
   * before a wait must be safe to run again. Not available in parallel branches or `forEach` instances.
   */
  readonly sleep: (ms: number) => Promise<void>;
  /** Like `sleep`, until an instant. */
  readonly sleepUntil: (at: Date) => Promise<void>;
  /**
   * Parks the run until an event of this name is sent to it (`sendEvent`, `rimthan runs send-event`) and answers its
   * payload; undefined when `timeoutMs` passes first. Events of one name are consumed in arrival order, each once.
   */
  readonly waitForEvent: (name: string, options?: { readonly timeoutMs?: number }) => Promise<JsonObject | undefined>;
  /**
   * Starts a registered flow (`name@version` or its definition) as a child run of the same session (`parent_run_id`
   * set) and parks until it ends: answers the child's final state; a failed or cancelled child throws an error with
   * `code` `child_failed` or `child_cancelled` (retry policies and error routes see it). The start is idempotent per
   * vertex visit and call, so a crash mid-vertex never starts a second child; cancelling this run cancels the child.
   */
  readonly runChild: (
    flow: string | { readonly name: string; readonly version: string },
    input: JsonObject,
  ) => Promise<JsonObject>;
  /** For a `forEach` vertex: the list item this instance handles; otherwise undefined. */
  readonly item: JsonValue | undefined;
  /** For a `forEach` vertex: the item's 0-based position in the list; otherwise undefined. */
  readonly index: number | undefined;
  /** For an error-route handler: the failure that routed control here; otherwise undefined. */
  readonly failure: VertexFailure | undefined;
}

/** One task of the graph. */
export interface VertexSpec<S extends JsonObject, I extends JsonObject = JsonObject> {
  /** Human label for history entries (default: the vertex id). */
  readonly label?: string;
  /** The work (async or not); its result is merged shallowly into the state. */
  readonly run: (ctx: VertexContext<S, I>) => Promise<Partial<S> | void> | Partial<S> | void;
  readonly retry?: RetryPolicy;
  /** Per-try time limit: the signal is aborted and the try counts as failed. */
  readonly timeoutMs?: number;
  /** The outgoing edge; absent (and no entry in `edges`) = the flow ends after this vertex. */
  readonly next?: NextSpec<S>;
  /**
   * The state keys this vertex may write. Required for a vertex that can run in parallel with another (register checks
   * that two such vertices share no key without a reducer); a parallel branch writing a key outside it fails the run.
   */
  readonly writes?: readonly (keyof S & string)[];
  /**
   * Dynamic fan-out: when the vertex is due, it runs once per item of this list (concurrently, each with `ctx.item`),
   * and the instances' updates merge in item order. Every key it writes needs a reducer. An empty list skips it.
   */
  readonly forEach?: (state: Readonly<S>) => readonly JsonValue[];
  /** Most items `forEach` may yield (default 64, at most 1000); more fails the vertex. */
  readonly maxItems?: number;
  /**
   * Error route: the vertex that takes over when this one's tries are spent (it receives `ctx.failure`), instead of
   * the run pausing as `interrupted` (task_failed). The failed vertex writes nothing.
   */
  readonly onError?: string;
  /**
   * The vertices a conditional `next` (a function) may choose, declared so the flow's graph can draw them (`rimthan runs
   * graph`, the console) and checked at run time: a choice outside them fails the edge like an unknown vertex.
   * Absent: any vertex of the graph.
   */
  readonly targets?: readonly string[];
}

/** An edge declared apart from its vertex (adds to the vertex's `next`; several edges from one vertex fan out). */
export interface EdgeSpec<S extends JsonObject> {
  readonly from: string;
  readonly to: NextSpec<S>;
}

export interface GraphSpec<S extends JsonObject, I extends JsonObject = JsonObject> {
  readonly start: string;
  readonly vertices: Readonly<Record<string, VertexSpec<S, I>>>;
  /** Edges declared apart; several from one vertex fan out (equivalent to an array `next`). */
  readonly edges?: readonly EdgeSpec<S>[];
  /** Per-key reducers: how writes of one key by several branches of one parallel step combine. */
  readonly reducers?: { readonly [K in keyof S]?: Reducer<Exclude<S[K], undefined>> };
}

/**
 * A declaration that this version can take over interrupted runs of an older version of the same flow (an explicit
 * upgrade: `upgradeRun`, `rimthan runs upgrade`). The run continues here at the vertex mapped from the one it is paused
 * at, with its state carried over (or transformed) and checked against this version's `stateSchema`.
 */
export interface UpgradeSpec<S extends JsonObject> {
  /** The older version of this flow (its exact version string). */
  readonly from: string;
  /** Paused-at vertex of the older version → the vertex of this version to continue at. Unlisted vertices refuse. */
  readonly vertices: Readonly<Record<string, string>>;
  /** Builds this version's state from the older version's (default: unchanged); checked against `stateSchema`. */
  readonly state?: (previous: JsonObject) => S;
}

/** A flow as authored: identity, closed JSON Schemas and the graph. */
export interface FlowSpec<I extends JsonObject, S extends JsonObject> {
  /** `^[a-z][a-z0-9_]{2,63}$` */
  readonly name: string;
  /** Non-empty, at most 64 bytes; name@version is immutable once runs exist. */
  readonly version: string;
  /** At most 256 bytes. */
  readonly description: string;
  /** JSON Schema 2020-12, root `type: object` with `additionalProperties: false`, local `#` refs only. */
  readonly inputSchema: JsonObject;
  /** Same rules; absent = the flow cannot be resumed (resume_not_supported). */
  readonly resumeSchema?: JsonObject;
  /** The state a run starts with (default: the input itself). */
  readonly initialState?: (input: I) => S;
  /** JSON Schema of the flow state (same rules as inputSchema); required by `upgrades`, which check against it. */
  readonly stateSchema?: JsonObject;
  /** Older versions whose interrupted runs this version can take over (see UpgradeSpec). */
  readonly upgrades?: readonly UpgradeSpec<S>[];
  readonly graph: GraphSpec<S, I>;
  /** At most `limit` runs of this flow (by name, across its versions) execute at once; see ConcurrencySpec. */
  readonly concurrency?: ConcurrencySpec<I>;
  /** Cron schedules that start runs of this flow (at most 32; see ScheduleSpec). */
  readonly schedules?: readonly ScheduleSpec<I>[];
}

/**
 * A bound on how many runs of a flow execute at once: flow-wide, or per key computed from the run's input (like
 * Hatchet or Inngest concurrency keys). Runs beyond it are acknowledged (their seed is durable) and wait as `pending`,
 * starting in creation order as slots free. A run holds its slot until it is terminal: while running, parked on a
 * sleep, event or child, and while interrupted. The bound counts runs of the flow name across its versions that
 * declare a limit; the limit applied is the one of the version that last admitted or started a run of the key.
 */
export interface ConcurrencySpec<I extends JsonObject = JsonObject> {
  /** Integer 1..10000. */
  readonly limit: number;
  /**
   * The key of a run (a non-empty string of at most 256 bytes); absent = one key for the whole flow. A key function
   * that throws or answers anything else refuses the start with `invalid_input`.
   */
  readonly key?: (input: Readonly<I>) => string;
}

/**
 * A cron schedule of a flow (see the flows guide, "Schedules"): each tick starts one run of the flow, exactly once
 * across every worker of a store. The latest registered version of a flow name owns its schedules.
 */
export interface ScheduleSpec<I extends JsonObject = JsonObject> {
  /** `^[a-z][a-z0-9_-]{0,63}$`, unique within the flow. */
  readonly id: string;
  /** Five-field cron (minute hour day-of-month month day-of-week), e.g. `0 6 * * 1-5`. */
  readonly cron: string;
  /** IANA time zone the cron is read in (default `UTC`). */
  readonly timezone?: string;
  /**
   * The run input (default `{}`): an object, or a function of the tick instant returning one. Checked against the
   * flow's inputSchema at each tick; a bad input (or a function that throws) fails that tick, counted and shown by
   * `rimthan runs schedules`, and starts nothing.
   */
  readonly input?: I | ((tick: Date) => I);
  /**
   * A tick while the previous run of this schedule is not terminal: `skip` (default; counted as skipped),
   * `buffer_one` (at most one waiting tick, started when the previous run ends; further ones skipped) or `allow`.
   */
  readonly overlap?: 'skip' | 'buffer_one' | 'allow';
  /**
   * Ticks that fell due while no worker ran: `none` (default; counted as missed, only a tick at most 60 s late runs),
   * `latest` (the most recent one runs, the others are missed) or `all` (each runs, at most 100; older ones missed).
   */
  readonly catchUp?: 'none' | 'latest' | 'all';
}
