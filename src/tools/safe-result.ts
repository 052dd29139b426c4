/**
 * The safe run result: bounded run metadata a model may see. Built field by field from the record (never by copying
 * it), so the input, its storage key, flow state, the idempotency key and the artifact namespace cannot leak.
 */
import type { JsonObject } from '../core/index.js';
import type { RunRecord } from '../runs/store/index.js';
import { RunStatus } from '../runs/store/index.js';
import type { ToolContext } from './types.js';

/** True when the exact definition version the run started with declares a resume schema. */
export function resumeSupported(ctx: ToolContext, name: string, version: string): boolean {
  return ctx.catalog.resolve(name, version)?.resumeSchema !== undefined;
}

/** The human label of a vertex of the pinned definition (the vertex id when the definition is not in the catalog). */
function vertexLabel(ctx: ToolContext, record: RunRecord, vertexId: string): string {
  return (
    ctx.catalog.resolve(record.definition_name, record.definition_version)?.graph.vertices.get(vertexId)?.label ??
    vertexId
  );
}

/** Projects a record onto the safe run result. */
export function safeRunResult(record: RunRecord, ctx: ToolContext): JsonObject {
  const out: JsonObject = {
    run_id: record.run_id,
    definition_name: record.definition_name,
    definition_version: record.definition_version,
    run_status: record.status,
  };
  if (record.status_summary !== '') out['status_summary'] = record.status_summary;
  out['checkpoint_revision'] = record.checkpoint_revision;
  out['activity_cursor'] = record.activity_cursor;
  if (record.parent_run_id !== null) out['parent_run_id'] = record.parent_run_id;
  if (record.artifacts.length > 0) {
    out['artifacts'] = record.artifacts.map((a) => ({ id: a.id, kind: a.kind, digest: a.digest, size: a.size }));
  }
  out['created_at'] = record.created_at;
  out['updated_at'] = record.updated_at;
  if (record.status === RunStatus.Interrupted && record.interrupt !== null) {
    out['interrupt'] = {
      reason: record.interrupt.reason,
      vertex: record.interrupt.vertex,
      vertex_label: vertexLabel(ctx, record, record.interrupt.vertex),
      resume_supported: resumeSupported(ctx, record.definition_name, record.definition_version),
    };
  }
  return out;
}
