/**
 * The packaged release with one change: desk-research's evidence-table may be 2 MiB (the packaged limit is 256 KiB).
 * It is reassembled (entry digests, manifest) and verified through verifyReleaseFile like any release the server loads,
 * so the 1 MiB prepare benchmark runs against a release the registry itself accepts.
 */
import { assembleReleaseFile, serializeReleaseFile, verifyReleaseFile } from '../../src/registry/index.js';
import type { Release, StepDefinition, WorkflowDefinition } from '../../src/registry/index.js';
import { WORKFLOW_ID } from './guided-participant.js';

export const BIG_ARTIFACT_MAX_BYTES = 2 * 1024 * 1024;

function widen(step: StepDefinition): StepDefinition {
  if (step.id !== 'desk-research') return step;
  return {
    ...step,
    outputs: step.outputs.map((o) =>
      o.artifact_id === 'evidence-table' ? { ...o, max_bytes: BIG_ARTIFACT_MAX_BYTES } : o,
    ),
  };
}

/** Returns the verified derived release; throws if the registry refuses it. */
export function bigArtifactRelease(packaged: Release): Release {
  const workflows: WorkflowDefinition[] = packaged.workflows.map((w) =>
    w.id === WORKFLOW_ID ? { ...w, steps: w.steps.map(widen) } : w,
  );
  const file = assembleReleaseFile({
    registry_id: packaged.registry_id,
    release: packaged.release,
    workflows,
    assets: packaged.assets,
    validators: packaged.validators,
    schemas: packaged.schemas,
  });
  const verified = verifyReleaseFile(serializeReleaseFile(file));
  if (!verified.ok) throw new Error(`derived 2 MiB release refused: ${verified.reason}`);
  return verified.release;
}
