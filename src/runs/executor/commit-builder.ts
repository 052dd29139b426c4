/**
 * Builds the one atomic store commit of each engine step: record patch (compare-and-swap), checkpoint N+1
 * (compare-and-append) and the activity entries of that revision with deterministic event ids.
 */
import type { ActivityEntry, ActivityKind, Commit, RunPatch, RunRecord, RunStatus } from '../store/types.js';
import { encodeCheckpoint, type FlowCheckpoint } from './checkpoint-state.js';
import { activityEventId } from './event-id.js';
import { MAX_MESSAGE_BYTES, MAX_SUMMARY_BYTES, truncateUtf8 } from './text.js';

export interface ActivitySpec {
  readonly kind: ActivityKind;
  readonly run_status: RunStatus;
  readonly vertex?: { readonly id: string; readonly label: string };
  readonly message?: string;
}

export interface StepCommit {
  /** The record as read; its record_revision is the compare-and-swap guard. */
  readonly record: RunRecord;
  readonly now: string;
  readonly patch: Omit<RunPatch, 'updated_at'>;
  /** Appended as revision record.checkpoint_revision + 1 (0 for the seed). */
  readonly checkpoint: FlowCheckpoint;
  readonly activities: readonly ActivitySpec[];
  /** Number of vertices of the graph, reported with every entry. */
  readonly totalVertices: number;
}

/** Turns one engine step into a store commit. */
export function buildStepCommit(step: StepCommit): Commit {
  const { record, now, checkpoint } = step;
  const revision = record.checkpoint_revision + 1;
  const activities = step.activities.map((spec, ordinal): Omit<ActivityEntry, 'run_id'> => ({
    revision,
    ordinal,
    event_id: activityEventId({
      session_id: record.session_id,
      run_id: record.run_id,
      kind: spec.kind,
      revision,
      vertex_id: spec.vertex?.id,
      ordinal,
    }),
    kind: spec.kind,
    run_status: spec.run_status,
    occurred_at: now,
    ...(spec.vertex === undefined ? {} : { vertex_id: spec.vertex.id, vertex_label: spec.vertex.label }),
    completed_vertices: checkpoint.completed_vertices.length,
    total_vertices: step.totalVertices,
    ...(spec.message === undefined ? {} : { message: truncateUtf8(spec.message, MAX_MESSAGE_BYTES) }),
  }));
  const patch: RunPatch = {
    ...step.patch,
    ...(step.patch.status_summary === undefined
      ? {}
      : { status_summary: truncateUtf8(step.patch.status_summary, MAX_SUMMARY_BYTES) }),
    updated_at: now,
  };
  return {
    run_id: record.run_id,
    expected_record_revision: record.record_revision,
    patch,
    checkpoint: { revision, state: encodeCheckpoint(checkpoint), created_at: now },
    activities,
  };
}

/**
 * A patch-only commit that bumps record_revision: fences this worker's ownership and starts a new attempt-id epoch.
 * Only needed when one execution has used up the tries of its epoch (see TRIES_PER_EPOCH); the claim or the seed that
 * gave the execution its lease is its first fence.
 */
export function buildFenceCommit(record: RunRecord, now: string): Commit {
  return { run_id: record.run_id, expected_record_revision: record.record_revision, patch: { updated_at: now } };
}
