/**
 * The engine steps of parallel branches and error routes, as pure data like steps.ts: a branch's own completion (one
 * commit per branch, so a crash re-runs only the branches that had not committed), the barrier (the last branch's
 * completion, the deterministic merge and the next step, in one commit), and a failure handed to an error route.
 */
import type { JsonObject } from '../../core/json.js';
import type { VertexFailure } from '../flow/types.js';
import { ActivityKind, RunStatus, type RunRecord } from '../store/types.js';
import { withStatus, type FlowCheckpoint } from './checkpoint-state.js';
import type { ActivitySpec, StepCommit } from './commit-builder.js';
import { pendingSlots, type Frontier, type FrontierSlot, type SlotResult } from './frontier-state.js';
import { isSequential } from './frontier-plan.js';
import { vertexStep, type PendingCompletion } from './steps.js';

interface Base {
  readonly record: RunRecord;
  readonly now: string;
  readonly totalVertices: number;
}

type Vertex = { readonly id: string; readonly label: string };

/** The checkpoint `cp` continuing with the step `slots` (sequential: next_vertex; parallel: a fresh frontier). */
export function withSlots(cp: FlowCheckpoint, slots: readonly FrontierSlot[]): FlowCheckpoint {
  const { frontier: _frontier, failure: _failure, ...rest } = cp;
  const first = slots[0];
  if (first === undefined) return { ...rest, next_vertex: null };
  if (isSequential(slots)) {
    return { ...rest, next_vertex: first.vertex, ...(first.failure === undefined ? {} : { failure: first.failure }) };
  }
  return { ...rest, next_vertex: first.vertex, frontier: { slots, done: slots.map(() => null) } };
}

function completedVertices(cp: FlowCheckpoint, vertex: string): readonly string[] {
  return cp.completed_vertices.includes(vertex) ? cp.completed_vertices : [...cp.completed_vertices, vertex];
}

function routedMessage(failure: VertexFailure | undefined, handler: string | undefined): string | undefined {
  if (failure === undefined || handler === undefined) return undefined;
  return `failed (${failure.code}); handled by ${handler}`;
}

/** A failed vertex whose error route takes over: it completes writing nothing, and its handler runs next. */
export function routedStep(
  b: Base & {
    readonly cp: FlowCheckpoint;
    readonly done: PendingCompletion;
    readonly failure: VertexFailure;
    readonly handler: Vertex;
    readonly slots: readonly FrontierSlot[];
  },
): StepCommit {
  const step = vertexStep({ ...b, next: b.slots[0]?.vertex ?? null });
  const message = routedMessage(b.failure, b.handler.label);
  return {
    ...step,
    checkpoint: withSlots(step.checkpoint, b.slots),
    activities: step.activities.map((a) => (message === undefined ? a : { ...a, message })),
  };
}

/** One branch committed its result; the step goes on with the others. */
export function branchStep(
  b: Base & {
    readonly cp: FlowCheckpoint & { readonly frontier: Frontier };
    readonly index: number;
    readonly vertex: Vertex;
    readonly result: SlotResult;
    readonly handler?: string;
  },
): StepCommit {
  const done = b.cp.frontier.done.map((d, i) => (i === b.index ? b.result : d));
  const frontier: Frontier = { slots: b.cp.frontier.slots, done };
  const firstPending = pendingSlots(frontier)[0];
  const next = firstPending === undefined ? null : (frontier.slots[firstPending]?.vertex ?? null);
  const message = routedMessage(b.result.routed, b.handler);
  return {
    ...b,
    patch: { status: RunStatus.Running, status_summary: `completed ${b.vertex.label}`, interrupt: null },
    checkpoint: {
      ...b.cp,
      status: RunStatus.Running,
      completed_vertices: completedVertices(b.cp, b.vertex.id),
      steps: b.cp.steps + 1,
      attempt: b.result.attempt,
      // The resume payload belongs to the branch at next_vertex: it is spent once that branch committed.
      resume: b.cp.next_vertex === b.vertex.id ? null : b.cp.resume,
      next_vertex: next,
      frontier,
    },
    activities: [
      {
        kind: ActivityKind.VertexCompleted,
        run_status: RunStatus.Running,
        vertex: { id: b.vertex.id, label: b.vertex.label },
        ...(message === undefined ? {} : { message }),
      },
    ],
  };
}

/**
 * The last branch committed: the merged state and the next step (`slots`; none completes the run) in the same commit
 * as that branch's completion.
 */
export function barrierStep(
  b: Base & {
    readonly cp: FlowCheckpoint & { readonly frontier: Frontier };
    readonly vertex: Vertex;
    readonly result: SlotResult;
    readonly merged: JsonObject;
    readonly slots: readonly FrontierSlot[];
    readonly handler?: string;
  },
): StepCommit {
  const finished = b.slots.length === 0;
  const status = finished ? RunStatus.Completed : RunStatus.Running;
  const message = routedMessage(b.result.routed, b.handler);
  const activities: ActivitySpec[] = [
    {
      kind: ActivityKind.VertexCompleted,
      run_status: status,
      vertex: { id: b.vertex.id, label: b.vertex.label },
      ...(message === undefined ? {} : { message }),
    },
  ];
  if (finished) activities.push({ kind: ActivityKind.RunCompleted, run_status: status });
  const { frontier: _frontier, ...rest } = b.cp;
  const base: FlowCheckpoint = {
    ...rest,
    status,
    flow_state: b.merged,
    completed_vertices: completedVertices(b.cp, b.vertex.id),
    steps: b.cp.steps + 1,
    attempt: b.result.attempt,
    resume: null,
  };
  return {
    ...b,
    patch: {
      status,
      status_summary: finished ? 'completed' : `completed ${b.vertex.label}`,
      interrupt: null,
    },
    checkpoint: withSlots(base, b.slots),
    activities,
  };
}

/** A step with nothing to run (a fan-out over an empty list with no edge after it): the run completes. */
export function emptyStep(b: Base & { readonly cp: FlowCheckpoint }): StepCommit {
  const status = RunStatus.Completed;
  return {
    ...b,
    patch: { status, status_summary: 'completed', interrupt: null },
    checkpoint: withStatus(withSlots(b.cp, []), status, { resume: null }),
    activities: [{ kind: ActivityKind.RunCompleted, run_status: status }],
  };
}
