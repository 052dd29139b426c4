/**
 * The waits of one vertex visit: `ctx.sleep`, `ctx.sleepUntil`, `ctx.waitForEvent` and `ctx.runChild`. A wait that is
 * already satisfied answers at once; one that is not records what the run awaits and throws FlowPark, which ends the
 * try: the execution then parks the run (no lease, no slot, nothing in memory) until a claim takes it back, and the
 * vertex runs again from its start with the memo (wait-memo.ts), so every earlier wait answers the same way.
 */
import type { Clock } from '../../core/clock.js';
import { sha256Hex } from '../../core/digest.js';
import type { JsonObject } from '../../core/json.js';
import { RunStatus, WAIT_FOREVER, type RunLedger, type RunWaits } from '../store/types.js';
import { EVENT_NAME } from '../store/validate-waits.js';
import { decodeCheckpoint } from './checkpoint-state.js';
import type { EventCursor, WaitMemo, WaitRecord } from './wait-memo.js';

/** How often a run awaiting a child looks again on its own (a child's end normally wakes it at once). */
export const CHILD_RECHECK_MS = 60_000;

/** Starts (or finds again, by its idempotency key) a child run of the same session. */
export type StartChild = (request: ChildStartRequest) => Promise<ChildStart>;

export interface ChildStartRequest {
  readonly sessionId: string;
  readonly parentRunId: string;
  readonly name: string;
  readonly version: string;
  readonly input: JsonObject;
  readonly idempotencyKey: string;
}

export type ChildStart =
  | { readonly ok: true; readonly runId: string }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** What the run awaits when the vertex parks (see RunPark) and the summary the record shows meanwhile. */
export interface ParkRequest {
  readonly wait_until: number;
  readonly event?: { readonly name: string; readonly position: number };
  readonly child?: string;
  readonly summary: string;
}

/** The control-flow signal of a wait that must park (the session records the park before throwing it). */
export class FlowPark extends Error {
  override readonly name = 'FlowPark';
  constructor() {
    super('the run parks until its wait is over');
  }
}

/** A failed wait: `code` is what an error route receives (child_failed, child_cancelled, ...). */
export class WaitError extends Error {
  override readonly name = 'WaitError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Names a flow to start as a child: its definition (name and version), or `name@version`. */
export type ChildFlowRef = string | { readonly name: string; readonly version: string };

export interface WaitHost {
  readonly store: RunLedger & RunWaits;
  readonly clock: Clock;
  readonly runId: string;
  readonly sessionId: string;
  readonly vertex: string;
  /** Vertex completions before this visit: with the vertex and the call's position it names a child start. */
  readonly visit: number;
  readonly cursor: EventCursor | undefined;
  readonly startChild: StartChild | undefined;
}

function childRef(ref: ChildFlowRef): { name: string; version: string } {
  if (typeof ref !== 'string') return { name: ref.name, version: ref.version };
  const at = ref.indexOf('@');
  if (at <= 0 || at === ref.length - 1) throw new WaitError('invalid_child', 'a child flow is named name@version');
  return { name: ref.slice(0, at), version: ref.slice(at + 1) };
}

function instant(ms: number): string {
  return new Date(Math.min(ms, WAIT_FOREVER)).toISOString();
}

export class WaitSession {
  readonly #host: WaitHost;
  readonly #memo: WaitRecord[];
  #calls = 0;
  /** Set when a wait of the current try asked to park. */
  parked: ParkRequest | undefined;

  constructor(host: WaitHost, memo: WaitMemo | undefined) {
    this.#host = host;
    this.#memo = memo !== undefined && memo.vertex === host.vertex ? [...memo.waits] : [];
  }

  /** A new try of the vertex: calls are counted from the first again (the memo stays). */
  beginTry(): void {
    this.#calls = 0;
    this.parked = undefined;
  }

  /** The waits so far, as the checkpoint keeps them. */
  get memo(): WaitMemo {
    return { vertex: this.#host.vertex, waits: [...this.#memo] };
  }

  #now(): number {
    return this.#host.clock.now().getTime();
  }

  /** The record of this call: the memo's, or a fresh one made by `create`; its kind must match the call's. */
  #record<K extends WaitRecord['kind']>(
    kind: K,
    create: () => Extract<WaitRecord, { kind: K }>,
  ): [number, Extract<WaitRecord, { kind: K }>] {
    const index = this.#calls++;
    const found = this.#memo[index];
    if (found === undefined) {
      const made = create();
      this.#memo.push(made);
      return [index, made];
    }
    if (found.kind !== kind) {
      throw new WaitError('waits_changed', `wait ${index + 1} of this vertex was a ${found.kind} wait, now a ${kind}`);
    }
    return [index, found as Extract<WaitRecord, { kind: K }>];
  }

  #park(request: ParkRequest): never {
    this.parked = request;
    throw new FlowPark();
  }

  sleepUntil(at: number): Promise<void> {
    try {
      if (!Number.isFinite(at)) throw new WaitError('invalid_wait', 'sleepUntil needs a valid date');
      const [, record] = this.#record('sleep', () => ({ kind: 'sleep', until: Math.max(0, Math.ceil(at)) }));
      if (this.#now() >= record.until) return Promise.resolve();
      return this.#park({ wait_until: record.until, summary: `sleeping until ${instant(record.until)}` });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  sleep(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new WaitError('invalid_wait', 'sleep needs ms >= 0'));
    return this.sleepUntil(this.#now() + ms);
  }

  async waitForEvent(name: string, timeoutMs: number | undefined): Promise<JsonObject | undefined> {
    if (typeof name !== 'string' || !EVENT_NAME.test(name)) {
      throw new WaitError('invalid_wait', 'an event name matches ^[a-z][a-z0-9_.-]{0,63}$');
    }
    if (timeoutMs !== undefined && (!Number.isFinite(timeoutMs) || timeoutMs < 0)) {
      throw new WaitError('invalid_wait', 'timeoutMs must be >= 0');
    }
    const [index, record] = this.#record('event', () => ({
      kind: 'event',
      name,
      position: this.#nextPosition(name),
      until: timeoutMs === undefined ? null : this.#now() + Math.ceil(timeoutMs),
    }));
    if (record.name !== name) throw new WaitError('waits_changed', `wait ${index + 1} awaited event ${record.name}`);
    if (record.outcome === 'timed_out') return undefined;
    const event = await this.#host.store.eventAt(this.#host.runId, name, record.position);
    if (event !== undefined) {
      this.#memo[index] = { ...record, outcome: 'received' };
      return event.payload;
    }
    if (record.until !== null && this.#now() >= record.until) {
      this.#memo[index] = { ...record, outcome: 'timed_out' };
      return undefined;
    }
    return this.#park({
      wait_until: record.until ?? WAIT_FOREVER,
      event: { name, position: record.position },
      summary: `waiting for event ${name}${record.until === null ? '' : ` until ${instant(record.until)}`}`,
    });
  }

  /** The position of the next event of `name` for a new wait: after the consumed ones and this visit's received ones. */
  #nextPosition(name: string): number {
    let at = this.#host.cursor?.[name] ?? 0;
    for (const w of this.#memo) if (w.kind === 'event' && w.name === name && w.outcome !== 'timed_out') at += 1;
    return at;
  }

  async runChild(flow: ChildFlowRef, input: JsonObject): Promise<JsonObject> {
    const host = this.#host;
    const ref = childRef(flow);
    const index = this.#calls;
    const found = this.#memo[index];
    let childId: string;
    if (found?.kind === 'child') {
      this.#calls++;
      childId = found.run_id;
    } else {
      if (found !== undefined) this.#record('child', () => ({ kind: 'child', run_id: '' }));
      childId = await this.#start(ref, input, index);
      this.#record('child', () => ({ kind: 'child', run_id: childId }));
    }
    const child = await host.store.getRunById(childId);
    if (child === undefined) throw new WaitError('child_failed', `child run ${childId} is gone`);
    switch (child.status) {
      case RunStatus.Completed: {
        const cp = await host.store.latestCheckpoint(childId);
        const decoded = cp === undefined ? undefined : decodeCheckpoint(cp.state);
        if (decoded === undefined) throw new WaitError('child_failed', `child run ${childId} left no readable state`);
        return decoded.flow_state;
      }
      case RunStatus.Failed:
        throw new WaitError('child_failed', `child run ${childId} failed`);
      case RunStatus.Cancelled:
        throw new WaitError('child_cancelled', `child run ${childId} was cancelled`);
      case RunStatus.Interrupted:
        // A task that failed after its retries ends the wait; a child awaiting input keeps the parent waiting.
        if (child.interrupt?.reason === 'task_failed') {
          throw new WaitError('child_failed', `child run ${childId} stopped: a task failed`);
        }
        return this.#park({
          wait_until: this.#now() + CHILD_RECHECK_MS,
          child: childId,
          summary: `waiting for child run ${childId}`,
        });
      default:
        return this.#park({
          wait_until: this.#now() + CHILD_RECHECK_MS,
          child: childId,
          summary: `waiting for child run ${childId}`,
        });
    }
  }

  async #start(ref: { name: string; version: string }, input: JsonObject, index: number): Promise<string> {
    const host = this.#host;
    if (host.startChild === undefined) throw new WaitError('child_unavailable', 'this worker cannot start child runs');
    // The same visit's same call always presents the same key: a crash mid-vertex finds the child it started.
    const key = `child-${sha256Hex(`${host.runId}:${host.visit}:${host.vertex}:${index}`)}`;
    const started = await host.startChild({
      sessionId: host.sessionId,
      parentRunId: host.runId,
      name: ref.name,
      version: ref.version,
      input,
      idempotencyKey: key,
    });
    if (!started.ok) throw new WaitError('child_start_refused', `child run refused: ${started.code}`);
    return started.runId;
  }
}
