/**
 * Resume: an interrupted run continues at the vertex it paused at. The payload is validated against the resume schema
 * of the exact definition version the run started with and stored in the resume checkpoint, so it survives a crash.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { RimthanError } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import { parseStrictJson } from '../../core/strict-json.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { INPUT_LIMITS, loadRunView, pinnedDefinition } from '../executor/run-loader.js';
import { deepFreeze } from '../executor/state-update.js';
import { resumeStep } from '../executor/steps.js';
import { RunStatus, StoreConflictError, type RunRecord } from '../store/types.js';
import { runConflict, runNotFound, unknownDefinition } from './errors.js';
import type { EngineHandle } from './types.js';

const MAX_TRIES = 4;

/** A private frozen copy of the payload, refused when it is not one bounded plain JSON object. */
function copyPayload(payload: unknown): JsonObject {
  let text: string | undefined;
  try {
    text = isJsonObject(payload) ? canonicalJson(payload) : undefined;
  } catch {
    text = undefined;
  }
  const parsed = text === undefined ? undefined : parseStrictJson(text, INPUT_LIMITS);
  if (parsed === undefined || !parsed.ok || !isJsonObject(parsed.value)) {
    throw new RimthanError('invalid_input', 'resume must be one JSON object of at most 256 KiB, depth 32');
  }
  return deepFreeze(parsed.value);
}

/** Resumes an interrupted run of the session; see SessionController.resume. */
export async function resumeRun(
  engine: EngineHandle,
  sessionId: string,
  runId: string,
  payload: JsonObject,
): Promise<RunRecord> {
  engine.assertAccepting();
  for (let i = 0; i < MAX_TRIES; i++) {
    const view = await loadRunView(engine.store, () => engine.store.getRun(sessionId, runId));
    if (view === undefined) throw runNotFound();
    const { record, checkpoint } = view;
    // The same order as workflow_run_resume: what the definition allows, then the run's status, then the payload.
    const def = pinnedDefinition(engine.catalog, record);
    if (def === undefined) throw unknownDefinition(record);
    if (!def.resumeSupported) {
      throw new RimthanError('resume_not_supported', `flow ${def.name}@${def.version} declares no resume schema`);
    }
    if (record.status !== RunStatus.Interrupted) {
      throw runConflict(`run is ${record.status}; only an interrupted run can be resumed`);
    }
    if (record.cancel_requested) throw runConflict('run is being cancelled');
    const copy = copyPayload(payload);
    const check = def.validateResume(copy);
    if (!check.ok) {
      const first = check.issues[0];
      const where = first === undefined ? '' : ` (${first.keyword} at ${first.schemaPath})`;
      throw new RimthanError('invalid_input', `resume does not match the resume schema${where}`);
    }
    const vertexId = checkpoint?.next_vertex ?? null;
    const vertex = vertexId === null ? undefined : def.graph.vertices.get(vertexId);
    if (checkpoint === undefined || vertex === undefined) throw runConflict('run has no resumable position');
    const step = resumeStep({
      record,
      now: engine.clock.now().toISOString(),
      totalVertices: def.graph.size,
      cp: checkpoint,
      vertex,
      payload: copy,
    });
    try {
      const resumed = await engine.store.commit(buildStepCommit(step));
      engine.announce(runId);
      return resumed;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw runConflict('run changed while it was being resumed');
}
