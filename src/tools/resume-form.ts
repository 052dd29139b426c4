/**
 * The form a person fills in to resume a run: only for a run interrupted for a person (`awaiting_input`, not a failed
 * task) whose pinned definition declares a resume schema flat enough for a form (a closed object of primitive fields).
 * Anything else has no form and keeps today's path (`workflow_run_resume` with a `resume` object). The interruption it
 * answers is named by a digest of the run, its checkpoint revision and the waiting vertex, so an answer given for one
 * interruption can never resume another.
 */
import { digestJson, flatFormOf } from '../core/index.js';
import type { FlatForm, JsonObject } from '../core/index.js';
import type { RunToolsCatalog } from './types.js';

export interface ResumeForm {
  readonly message: string;
  readonly form: FlatForm;
  /** Digest of the interruption this form answers (run, checkpoint revision, vertex). */
  readonly interruptionSha256: string;
}

/** The resume form for `run` (a safe run result), or undefined when the run is not waiting for a person's form. */
export function resumeFormFor(catalog: RunToolsCatalog, run: JsonObject): ResumeForm | undefined {
  const interrupt = run['interrupt'] as JsonObject | undefined;
  if (run['run_status'] !== 'interrupted' || interrupt === undefined || interrupt['reason'] !== 'awaiting_input') {
    return undefined;
  }
  const definition = catalog.resolve(run['definition_name'] as string, run['definition_version'] as string);
  const form = flatFormOf(definition?.resumeSchema);
  if (form === undefined) return undefined;
  const label = interrupt['vertex_label'] as string;
  return {
    message: `The run of ${run['definition_name'] as string} ${run['definition_version'] as string} is waiting at "${label}" for your answer.`,
    form,
    interruptionSha256: digestJson({
      run_id: run['run_id'] as string,
      checkpoint_revision: run['checkpoint_revision'] as number,
      vertex: interrupt['vertex'] as string,
    }),
  };
}
