/**
 * The engine's checkpoint document (what `Checkpoint.state` holds). A checkpoint says what is completed and where to
 * go next, so after a crash the engine continues at `next_vertex` and never re-runs a completed vertex.
 */
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { VertexFailure } from '../flow/types.js';
import { RunStatus } from '../store/types.js';
import { decodeFailure, decodeFrontier, type Frontier } from './frontier-state.js';
import { decodeEventCursor, decodeWaitMemo, encodeWaitMemo, type EventCursor, type WaitMemo } from './wait-memo.js';

export const CHECKPOINT_FORMAT = 1;

export interface FlowCheckpoint {
  readonly format: typeof CHECKPOINT_FORMAT;
  /** The run status this checkpoint left the run in. */
  readonly status: RunStatus;
  readonly flow_state: JsonObject;
  /** The vertex to run next; null once the run ended. */
  readonly next_vertex: string | null;
  /** Distinct vertices completed so far, in order of first completion. */
  readonly completed_vertices: readonly string[];
  /** Vertex completions so far (counts a vertex again when a loop revisits it). */
  readonly steps: number;
  /** Durable attempt id of the try that produced this checkpoint (0 when no vertex ran for it). */
  readonly attempt: number;
  /** Resume payload for `next_vertex` (set by resume, cleared once that vertex completes). */
  readonly resume: JsonObject | null;
  /**
   * A parallel step in progress (absent for a one-vertex step): its branches and each one's committed result. While it
   * is present, `flow_state` is the state the step started from and `next_vertex` the first branch not yet done.
   */
  readonly frontier?: Frontier;
  /** The failure an error route hands to `next_vertex` (its handler); absent otherwise. */
  readonly failure?: VertexFailure;
  /** What `next_vertex` has waited for so far while the run was parked (see wait-memo.ts); absent otherwise. */
  readonly waits?: WaitMemo;
  /** Events of each name consumed by completed vertices (absent until a vertex received one). */
  readonly events?: EventCursor;
}

const STATUSES: ReadonlySet<string> = new Set(Object.values(RunStatus));

/** The checkpoint as the store keeps it. */
export function encodeCheckpoint(cp: FlowCheckpoint): JsonObject {
  return {
    format: cp.format,
    status: cp.status,
    flow_state: cp.flow_state,
    next_vertex: cp.next_vertex,
    completed_vertices: [...cp.completed_vertices],
    steps: cp.steps,
    attempt: cp.attempt,
    resume: cp.resume,
    ...(cp.frontier === undefined ? {} : { frontier: cp.frontier as unknown as JsonObject }),
    ...(cp.failure === undefined ? {} : { failure: { ...cp.failure } }),
    ...(cp.waits === undefined ? {} : { waits: encodeWaitMemo(cp.waits) }),
    ...(cp.events === undefined ? {} : { events: { ...cp.events } }),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Reads a stored checkpoint back; undefined when it is not an engine checkpoint of a known format. */
export function decodeCheckpoint(state: JsonObject): FlowCheckpoint | undefined {
  const { format, status, flow_state, next_vertex, completed_vertices, steps, attempt, resume } = state;
  if (format !== CHECKPOINT_FORMAT) return undefined;
  if (typeof status !== 'string' || !STATUSES.has(status)) return undefined;
  if (!isJsonObject(flow_state)) return undefined;
  if (next_vertex !== null && typeof next_vertex !== 'string') return undefined;
  if (!Array.isArray(completed_vertices) || !completed_vertices.every((v) => typeof v === 'string')) return undefined;
  if (!isCount(steps) || !isCount(attempt)) return undefined;
  if (resume !== null && !isJsonObject(resume)) return undefined;
  const frontier = state['frontier'] === undefined ? undefined : decodeFrontier(state['frontier']);
  const failure = state['failure'] === undefined ? undefined : decodeFailure(state['failure']);
  if (frontier === null || failure === null) return undefined;
  const waits = state['waits'] === undefined ? undefined : decodeWaitMemo(state['waits']);
  const events = state['events'] === undefined ? undefined : decodeEventCursor(state['events']);
  if (waits === null || events === null) return undefined;
  return {
    format,
    status: status as RunStatus,
    flow_state,
    next_vertex,
    completed_vertices,
    steps,
    attempt,
    resume,
    ...(frontier === undefined ? {} : { frontier }),
    ...(failure === undefined ? {} : { failure }),
    ...(waits === undefined ? {} : { waits }),
    ...(events === undefined ? {} : { events }),
  };
}

/** The seed checkpoint (revision 0) of a fresh run. */
export function seedCheckpoint(
  flowState: JsonObject,
  start: string,
  status: RunStatus = RunStatus.Running,
): FlowCheckpoint {
  return {
    format: CHECKPOINT_FORMAT,
    status,
    flow_state: flowState,
    next_vertex: start,
    completed_vertices: [],
    steps: 0,
    attempt: 0,
    resume: null,
  };
}

/** The checkpoint after `vertex` completed with `flowState`, continuing at `next` (null = end). */
export function afterVertex(
  prev: FlowCheckpoint,
  vertex: string,
  flowState: JsonObject,
  next: string | null,
  attempt: number,
  status: RunStatus,
): FlowCheckpoint {
  const completed = prev.completed_vertices.includes(vertex)
    ? prev.completed_vertices
    : [...prev.completed_vertices, vertex];
  return {
    format: CHECKPOINT_FORMAT,
    status,
    flow_state: flowState,
    next_vertex: next,
    completed_vertices: completed,
    steps: prev.steps + 1,
    attempt,
    resume: null,
    ...(prev.events === undefined ? {} : { events: prev.events }),
  };
}

/** The same position with another status (interrupt, resume, cancel, fail); `resume` replaces the payload. */
export function withStatus(
  prev: FlowCheckpoint,
  status: RunStatus,
  changes: { next_vertex?: string | null; resume?: JsonObject | null } = {},
): FlowCheckpoint {
  return {
    ...prev,
    status,
    attempt: 0,
    next_vertex: changes.next_vertex === undefined ? prev.next_vertex : changes.next_vertex,
    resume: changes.resume === undefined ? prev.resume : changes.resume,
  };
}
