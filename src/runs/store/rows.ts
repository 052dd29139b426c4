/**
 * Row mapping shared by both backends (what a commit means is decided in commit-plan.ts).
 */
import type { JsonObject } from '../../core/json.js';
import type {
  ActivityEntry,
  ActivityKind,
  ArtifactDescriptor,
  ArtifactNamespace,
  Checkpoint,
  InterruptInfo,
  RunEvent,
  RunRecord,
  RunStatus,
} from './types.js';

/** A `runs` row as either driver returns it (SQLite integers/0-1 flags; PostgreSQL bigint strings/booleans). */
export interface RunRow {
  created_seq: number | string | bigint;
  run_id: string;
  session_id: string;
  definition_name: string;
  definition_version: string;
  parent_run_id: string | null;
  input_sha256: string;
  idempotency_key: string | null;
  status: string;
  status_summary: string;
  cancel_requested: number | boolean;
  checkpoint_revision: number;
  activity_cursor: number;
  artifacts: string;
  artifact_namespace: string;
  interrupt: string | null;
  created_at: string;
  updated_at: string;
  record_revision: number;
}

export interface ActivityRow {
  run_id: string;
  revision: number;
  ordinal: number;
  event_id: string;
  kind: string;
  run_status: string;
  occurred_at: string;
  vertex_id: string | null;
  vertex_label: string | null;
  completed_vertices: number | null;
  total_vertices: number | null;
  message: string | null;
}

export interface CheckpointRow {
  run_id: string;
  revision: number;
  state: string;
  created_at: string;
}

/** Columns of `runs` read back into a record (lease columns stay private to the store). */
export const RUN_COLUMNS =
  'created_seq, run_id, session_id, definition_name, definition_version, parent_run_id, input_sha256, ' +
  'idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor, artifacts, ' +
  'artifact_namespace, interrupt, created_at, updated_at, record_revision';

export const ACTIVITY_COLUMNS =
  'run_id, revision, ordinal, event_id, kind, run_status, occurred_at, vertex_id, vertex_label, ' +
  'completed_vertices, total_vertices, message';

/** Converts a stored row into the public record. */
export function rowToRun(row: RunRow): RunRecord {
  return {
    session_id: row.session_id,
    run_id: row.run_id,
    definition_name: row.definition_name,
    definition_version: row.definition_version,
    parent_run_id: row.parent_run_id,
    input_sha256: row.input_sha256,
    idempotency_key: row.idempotency_key,
    status: row.status as RunStatus,
    status_summary: row.status_summary,
    cancel_requested: row.cancel_requested === true || row.cancel_requested === 1,
    checkpoint_revision: Number(row.checkpoint_revision),
    activity_cursor: Number(row.activity_cursor),
    artifacts: JSON.parse(row.artifacts) as ArtifactDescriptor[],
    artifact_namespace: JSON.parse(row.artifact_namespace) as ArtifactNamespace,
    interrupt: row.interrupt === null ? null : (JSON.parse(row.interrupt) as InterruptInfo),
    created_seq: Number(row.created_seq),
    created_at: row.created_at,
    updated_at: row.updated_at,
    record_revision: Number(row.record_revision),
  };
}

/** Converts a stored activity row, omitting absent optional fields. */
export function rowToActivity(row: ActivityRow): ActivityEntry {
  return {
    run_id: row.run_id,
    revision: Number(row.revision),
    event_id: row.event_id,
    ordinal: Number(row.ordinal),
    kind: row.kind as ActivityKind,
    run_status: row.run_status as RunStatus,
    occurred_at: row.occurred_at,
    ...(row.vertex_id === null ? {} : { vertex_id: row.vertex_id }),
    ...(row.vertex_label === null ? {} : { vertex_label: row.vertex_label }),
    ...(row.completed_vertices === null ? {} : { completed_vertices: Number(row.completed_vertices) }),
    ...(row.total_vertices === null ? {} : { total_vertices: Number(row.total_vertices) }),
    ...(row.message === null ? {} : { message: row.message }),
  };
}

/** Converts a stored checkpoint row. */
export function rowToCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    run_id: row.run_id,
    revision: Number(row.revision),
    state: JSON.parse(row.state) as JsonObject,
    created_at: row.created_at,
  };
}

/** Positional values of an activity insert, in ACTIVITY_COLUMNS order. */
export function activityValues(runId: string, e: Omit<ActivityEntry, 'run_id'>): (string | number | null)[] {
  return [
    runId,
    e.revision,
    e.ordinal,
    e.event_id,
    e.kind,
    e.run_status,
    e.occurred_at,
    e.vertex_id ?? null,
    e.vertex_label ?? null,
    e.completed_vertices ?? null,
    e.total_vertices ?? null,
    e.message ?? null,
  ];
}

/** JSON text of a record's structured columns. */
export function encodeJsonColumns(r: Pick<RunRecord, 'artifacts' | 'artifact_namespace' | 'interrupt'>): {
  artifacts: string;
  artifact_namespace: string;
  interrupt: string | null;
} {
  return {
    artifacts: JSON.stringify(r.artifacts),
    artifact_namespace: JSON.stringify(r.artifact_namespace),
    interrupt: r.interrupt === null ? null : JSON.stringify(r.interrupt),
  };
}

/** Per-status run counts from `status, n` rows, with every status present. */
export function statusCountsOf(rows: readonly { status: string; n: number | string }[]): Record<RunStatus, number> {
  const counts: Record<RunStatus, number> = {
    pending: 0,
    running: 0,
    interrupted: 0,
    completed: 0,
    cancelled: 0,
    failed: 0,
  };
  for (const row of rows) if (row.status in counts) counts[row.status as RunStatus] = Number(row.n);
  return counts;
}

/** True for a unique/primary-key violation from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** A `run_events` row as both drivers return it (the payload is stored as JSON text). */
export interface EventRow {
  run_id: string;
  event_id: string;
  name: string;
  payload: string;
  sent_at: string;
}

/** Converts a stored event row into the public event, decoding its payload. */
export function rowToEvent(row: EventRow): RunEvent {
  return { ...row, payload: JSON.parse(row.payload) as RunEvent['payload'] };
}
