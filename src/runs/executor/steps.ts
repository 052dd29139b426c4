/**
 * The engine's steps as pure data: for each lifecycle event, the record patch, the next checkpoint and the activity
 * entries. Both the executor and the supervisor's commands (start, resume, cancel) build their commits from here.
 */
import type { JsonObject } from '../../core/json.js';
import type { CompiledVertex } from '../flow/graph.js';
import { ActivityKind, RunStatus, type InterruptInfo, type RunRecord } from '../store/types.js';
import { afterVertex, CHECKPOINT_FORMAT, seedCheckpoint, withStatus, type FlowCheckpoint } from './checkpoint-state.js';
import type { ActivitySpec, StepCommit } from './commit-builder.js';
import type { WaitMemo } from './wait-memo.js';

type Vertex = Pick<CompiledVertex, 'id' | 'label'>;

/** A vertex that completed but whose completion was not yet committed (folded into a terminal step). */
export interface PendingCompletion {
  readonly vertex: Vertex;
  readonly state: JsonObject;
  readonly attemptId: number;
  /** For history: what the vertex waited for on its way (never a payload or state). */
  readonly message?: string | undefined;
}

interface Base {
  readonly record: RunRecord;
  readonly now: string;
  readonly totalVertices: number;
}

function ref(v: Vertex): { id: string; label: string } {
  return { id: v.id, label: v.label };
}

/** An empty terminal position for runs without a usable checkpoint (pending, or a corrupt checkpoint). */
export function emptyCheckpoint(status: RunStatus): FlowCheckpoint {
  return {
    format: CHECKPOINT_FORMAT,
    status,
    flow_state: {},
    next_vertex: null,
    completed_vertices: [],
    steps: 0,
    attempt: 0,
    resume: null,
  };
}

/** What a queued run's summary says until a worker claims it (the claim sets "started"). */
export const QUEUED_SUMMARY = 'queued: waiting for a free execution slot';

/**
 * Revision 0: the durable seed that acknowledges a start. A run that starts executing at once (its worker had a free
 * slot) becomes `running`; one that must wait (admission control) stays `pending` with its seed durable, and the
 * claim of the worker that takes it makes it `running`.
 */
export function seedStep(
  b: Base & { readonly flowState: JsonObject; readonly start: string; readonly queued?: boolean },
): StepCommit {
  const status = b.queued === true ? RunStatus.Pending : RunStatus.Running;
  return {
    ...b,
    patch: { status, status_summary: b.queued === true ? QUEUED_SUMMARY : 'started' },
    checkpoint: seedCheckpoint(b.flowState, b.start, status),
    activities: [{ kind: ActivityKind.RunStarted, run_status: status }],
  };
}

/** A vertex completed: continue at `next`, or complete the run when `next` is null (one commit either way). */
export function vertexStep(
  b: Base & { readonly cp: FlowCheckpoint; readonly done: PendingCompletion; readonly next: string | null },
): StepCommit {
  const finished = b.next === null;
  const status = finished ? RunStatus.Completed : RunStatus.Running;
  const activities: ActivitySpec[] = [
    {
      kind: ActivityKind.VertexCompleted,
      run_status: status,
      vertex: ref(b.done.vertex),
      ...(b.done.message === undefined ? {} : { message: b.done.message }),
    },
  ];
  if (finished) activities.push({ kind: ActivityKind.RunCompleted, run_status: status });
  return {
    ...b,
    patch: {
      status,
      status_summary: finished ? 'completed' : `completed ${b.done.vertex.label}`,
      interrupt: null,
    },
    checkpoint: afterVertex(b.cp, b.done.vertex.id, b.done.state, b.next, b.done.attemptId, status),
    activities,
  };
}

/**
 * The run parks at `vertex` (it stays `running`): the checkpoint keeps what the vertex waited for so far, the summary
 * says what it awaits now. No history entry: the vertex's completion tells what it waited for.
 */
export function parkStep(
  b: Base & { readonly cp: FlowCheckpoint; readonly waits: WaitMemo; readonly summary: string },
): StepCommit {
  return {
    ...b,
    patch: { status: RunStatus.Running, status_summary: b.summary, interrupt: null },
    checkpoint: { ...withStatus(b.cp, RunStatus.Running), waits: b.waits },
    activities: [],
  };
}

/** The run pauses at `vertex`: awaiting input (interrupt()) or a task that failed after its retries. */
export function interruptStep(
  b: Base & { readonly cp: FlowCheckpoint; readonly vertex: Vertex; readonly info: InterruptInfo },
): StepCommit {
  const summary =
    b.info.reason === 'awaiting_input'
      ? `awaiting input at ${b.vertex.label}${b.info.message === undefined ? '' : `: ${b.info.message}`}`
      : `${b.vertex.label} failed${b.info.message === undefined ? '' : ` (${b.info.message})`}; resume or cancel`;
  return {
    ...b,
    patch: { status: RunStatus.Interrupted, status_summary: summary, interrupt: b.info },
    checkpoint: withStatus(b.cp, RunStatus.Interrupted, { next_vertex: b.vertex.id, resume: null }),
    activities: [
      {
        kind: ActivityKind.RunInterrupted,
        run_status: RunStatus.Interrupted,
        vertex: ref(b.vertex),
        ...(b.info.message === undefined ? {} : { message: b.info.message }),
      },
    ],
  };
}

/** An interrupted run continues at its paused vertex with the (validated) resume payload. */
export function resumeStep(
  b: Base & { readonly cp: FlowCheckpoint; readonly vertex: Vertex; readonly payload: JsonObject },
): StepCommit {
  return {
    ...b,
    patch: { status: RunStatus.Running, status_summary: `resumed at ${b.vertex.label}`, interrupt: null },
    checkpoint: withStatus(b.cp, RunStatus.Running, { resume: b.payload }),
    activities: [{ kind: ActivityKind.RunResumed, run_status: RunStatus.Running, vertex: ref(b.vertex) }],
  };
}

function terminalStep(
  b: Base & { readonly cp: FlowCheckpoint | undefined; readonly pending?: PendingCompletion | undefined },
  status: RunStatus,
  kind: ActivityKind,
  message: string,
): StepCommit {
  const base = b.cp ?? emptyCheckpoint(status);
  const activities: ActivitySpec[] = [];
  let checkpoint: FlowCheckpoint;
  if (b.pending === undefined) {
    checkpoint = withStatus(base, status, { next_vertex: null, resume: null });
  } else {
    checkpoint = afterVertex(base, b.pending.vertex.id, b.pending.state, null, b.pending.attemptId, status);
    activities.push({
      kind: ActivityKind.VertexCompleted,
      run_status: status,
      vertex: ref(b.pending.vertex),
      ...(b.pending.message === undefined ? {} : { message: b.pending.message }),
    });
  }
  activities.push({ kind, run_status: status, message });
  return {
    ...b,
    patch: { status, status_summary: message, interrupt: null },
    checkpoint,
    activities,
  };
}

/** The one terminal checkpoint of a cancellation (a vertex that completed meanwhile is recorded in the same commit). */
export function cancelStep(
  b: Base & {
    readonly cp: FlowCheckpoint | undefined;
    readonly reason: string;
    readonly pending?: PendingCompletion | undefined;
  },
): StepCommit {
  const step = terminalStep(b, RunStatus.Cancelled, ActivityKind.RunCancelled, b.reason);
  return { ...step, patch: { ...step.patch, cancel_requested: true } };
}

/** The terminal checkpoint of a run that cannot go on (definition, checkpoint or input unusable; a broken edge). */
export function failStep(
  b: Base & {
    readonly cp: FlowCheckpoint | undefined;
    readonly message: string;
    readonly pending?: PendingCompletion | undefined;
  },
): StepCommit {
  return terminalStep(b, RunStatus.Failed, ActivityKind.RunFailed, b.message);
}
