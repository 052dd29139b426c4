/**
 * Runs one vertex: the attempt loop with exponential backoff, a per-try timeout that aborts the try's signal, and the
 * interrupt() hook. It never writes to the store itself; `beginTry` (supplied by the execution) mints the attempt id
 * of each try and may refuse (the run must stop).
 */
import { isRimthanError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { CompiledRetry, CompiledVertex } from '../flow/graph.js';
import { FlowInterrupt } from '../flow/interrupt.js';
import type { VertexContext, VertexFailure } from '../flow/types.js';
import { settleUnlessAborted, sleep } from './abort.js';
import { WaitError, type ParkRequest, type WaitSession } from './wait-session.js';
import { vertexIdempotencyKey } from './idempotency-key.js';
import { mergeUpdate, type Reducers } from './state-update.js';
import { MAX_MESSAGE_BYTES, MAX_SUMMARY_BYTES, truncateUtf8 } from './text.js';

export type VertexOutcome =
  /** `state`: the merged state, or only the vertex's own update when the request asked for `collectUpdate`. */
  | { readonly kind: 'completed'; readonly state: JsonObject; readonly attemptId: number }
  | { readonly kind: 'interrupted'; readonly message: string | undefined }
  /** `reason` is safe for history; `failure` (code and message) is for an error-route handler only. */
  | {
      readonly kind: 'failed';
      readonly tries: number;
      readonly reason: string;
      readonly failure: VertexFailure;
      readonly attemptId: number;
    }
  /** The vertex waits (a timer, an event, a child run): the execution parks the run. */
  | { readonly kind: 'parked'; readonly park: ParkRequest }
  /** The execution was halted (cancel, stop, lease loss) or refused a new try; nothing to commit. */
  | { readonly kind: 'halted' };

export interface VertexRunRequest {
  readonly runId: string;
  readonly vertex: CompiledVertex;
  readonly state: JsonObject;
  readonly input: JsonObject;
  readonly resume: JsonObject | undefined;
  /** Hard stop of the execution: aborts the try in flight. */
  readonly halt: AbortSignal;
  /** Graceful stop: lets the try in flight finish but starts no backoff wait or new try. */
  readonly drain: AbortSignal;
  /** Mints the attempt id of try `n` (1-based; unique per try, see attemptIdOf); undefined = stop without running it. */
  readonly beginTry: (n: number) => Promise<number | undefined>;
  /** Observability hook for failed tries (the error stays local; it never reaches history or a message). */
  readonly onTryFailed?: (error: unknown, attempt: number) => void;
  /** The flow's reducers, applied when the update merges into `state`. */
  readonly reducers?: Reducers;
  /** A parallel branch: the outcome carries the vertex's own update (checked, frozen), not the merged state. */
  readonly collectUpdate?: boolean;
  /** A `forEach` instance's item and index; an error-route handler's failure. */
  readonly item?: JsonValue;
  readonly index?: number;
  readonly failure?: VertexFailure;
  /** The visit's durable waits; absent in parallel branches, where a wait fails the try (waits_unsupported). */
  readonly waits?: WaitSession;
}

type TryResult =
  | { kind: 'ok'; state: JsonObject }
  | { kind: 'interrupt'; message: string | undefined }
  | { kind: 'park'; park: ParkRequest }
  | { kind: 'halted' }
  | { kind: 'error'; reason: string; error: unknown };

const FAILURE_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** The code and message an error-route handler receives for `error` (never a stack). */
function failureOf(vertex: string, error: unknown): VertexFailure {
  const own: unknown = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  const code = typeof own === 'string' && FAILURE_CODE.test(own) ? own : timedOut ? 'timeout' : 'vertex_failed';
  const message = error instanceof Error ? error.message : 'threw a non-error value';
  return { vertex, code, message: truncateUtf8(message, MAX_SUMMARY_BYTES) };
}

/** The visit's waits; a parallel branch has none, and its wait fails the try. */
function waitsOf(req: VertexRunRequest): WaitSession {
  if (req.waits !== undefined) return req.waits;
  throw new WaitError('waits_unsupported', 'waits are not available in parallel branches or forEach instances');
}

function timeoutError(ms: number): Error {
  const error = new Error(`timed out after ${ms} ms`);
  error.name = 'TimeoutError';
  return error;
}

/** Whether another try is worth it (the retry policy's predicate; one that throws says no). */
function shouldRetry(retry: CompiledRetry, error: unknown): boolean {
  if (retry.retryable === undefined) return true;
  try {
    return retry.retryable(error) === true;
  } catch {
    return false;
  }
}

/** Delay before try `n` (n >= 2): backoffMs * factor^(n-2), capped by maxBackoffMs. */
export function backoffDelay(retry: CompiledRetry, n: number): number {
  return Math.min(retry.backoffMs * retry.factor ** (n - 2), retry.maxBackoffMs);
}

/** A failure description safe for history: no exception message (it may carry participant data). */
function describeFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'timed out';
  if (isRimthanError(error) && /^[a-z_]{1,64}$/.test(error.code)) return `error ${error.code}`;
  if (error instanceof Error && /^[A-Za-z]{1,64}$/.test(error.name)) return `threw ${error.name}`;
  return 'threw a non-error value';
}

async function runTry(req: VertexRunRequest, attempt: number, attemptId: number): Promise<TryResult> {
  const { vertex } = req;
  const controller = new AbortController();
  const onHalt = (): void => controller.abort(req.halt.reason);
  req.halt.addEventListener('abort', onHalt, { once: true });
  let timedOut = false;
  const timer =
    vertex.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new Error('vertex timed out'));
        }, vertex.timeoutMs);
  let interrupt: { message: string | undefined } | undefined;
  const ctx: VertexContext<JsonObject> = {
    state: req.state,
    input: req.input,
    resume: req.resume,
    runId: req.runId,
    vertex: vertex.id,
    attempt,
    idempotencyKey: vertexIdempotencyKey(req.runId, vertex.id, attemptId),
    item: req.item,
    index: req.index,
    failure: req.failure,
    signal: controller.signal,
    sleep: (ms) => waitsOf(req).sleep(ms),
    sleepUntil: (at) => waitsOf(req).sleepUntil(at instanceof Date ? at.getTime() : Number.NaN),
    waitForEvent: (name, options) => waitsOf(req).waitForEvent(name, options?.timeoutMs),
    runChild: (flow, input) => waitsOf(req).runChild(flow, input),
    interrupt: (message?: string): never => {
      const bounded = typeof message === 'string' ? truncateUtf8(message, MAX_MESSAGE_BYTES) : undefined;
      interrupt = { message: bounded };
      throw new FlowInterrupt(bounded);
    },
  };
  try {
    const settled = await settleUnlessAborted(
      Promise.resolve().then(() => vertex.run(ctx)),
      controller.signal,
    );
    if (req.halt.aborted) return { kind: 'halted' };
    if (interrupt !== undefined) return { kind: 'interrupt', message: interrupt.message };
    const park = req.waits?.parked;
    if (park !== undefined) return { kind: 'park', park };
    if (settled.kind !== 'value') {
      const error = timedOut
        ? timeoutError(vertex.timeoutMs ?? 0)
        : settled.kind === 'error'
          ? settled.error
          : undefined;
      req.onTryFailed?.(error, attempt);
      return { kind: 'error', reason: describeFailure(error, timedOut), error };
    }
    const merged =
      req.collectUpdate === true ? mergeUpdate({}, settled.value) : mergeUpdate(req.state, settled.value, req.reducers);
    return merged.ok
      ? { kind: 'ok', state: merged.state }
      : { kind: 'error', reason: merged.reason, error: new Error(merged.reason) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    req.halt.removeEventListener('abort', onHalt);
  }
}

/** Runs a vertex until it completes, interrupts, exhausts its tries or the execution halts. */
export async function runVertex(req: VertexRunRequest): Promise<VertexOutcome> {
  const { retry } = req.vertex;
  let reason = 'failed';
  let lastError: unknown;
  let lastAttemptId = 0;
  let tries = 0;
  for (let n = 1; n <= retry.attempts; n++) {
    if (n > 1 && !shouldRetry(retry, lastError)) break;
    if (req.halt.aborted) return { kind: 'halted' };
    if (n > 1) {
      if (req.drain.aborted) return { kind: 'halted' };
      const waited = await sleep(backoffDelay(retry, n), [req.halt, req.drain]);
      if (!waited) return { kind: 'halted' };
    }
    const attemptId = await req.beginTry(n);
    if (attemptId === undefined) return { kind: 'halted' };
    req.waits?.beginTry();
    lastAttemptId = attemptId;
    tries = n;
    const result = await runTry(req, n, attemptId);
    switch (result.kind) {
      case 'ok':
        return { kind: 'completed', state: result.state, attemptId };
      case 'interrupt':
        return { kind: 'interrupted', message: result.message };
      case 'park':
        return { kind: 'parked', park: result.park };
      case 'halted':
        return { kind: 'halted' };
      case 'error':
        reason = result.reason;
        lastError = result.error;
        break;
    }
  }
  const failure = failureOf(req.vertex.id, lastError);
  return { kind: 'failed', tries, reason, failure, attemptId: lastAttemptId };
}
