/**
 * The guided engine: the four workflow-engine operations as pure functions of (release scope, signer, clock,
 * already schema-validated arguments). No I/O, no storage, no logging; the only state is what the harness carries.
 */
import type { JsonObject } from '../../core/index.js';
import type { ReleaseScope } from '../scope.js';
import { continueWorkflow } from './continue.js';
import type { GuidedEngineDeps } from './deps.js';
import { prepareStepValidation } from './prepare.js';
import { startWorkflow } from './start.js';
import { submitStepValidation } from './submit.js';

export interface GuidedEngine {
  /** rimthan.start_workflow against the active release scope. */
  startWorkflow(scope: ReleaseScope, args: JsonObject): JsonObject;
  /**
   * rimthan.continue_workflow against the checkpoint's pinned release scope; `migrationTarget` is the separately
   * verified release a `migration` request may move to (without it, migration is refused).
   */
  continueWorkflow(scope: ReleaseScope, args: JsonObject, migrationTarget?: ReleaseScope): JsonObject;
  /** rimthan.prepare_step_validation against the checkpoint's pinned release scope. */
  prepareStepValidation(scope: ReleaseScope, args: JsonObject): JsonObject;
  /** rimthan.submit_step_validation against the checkpoint's pinned release scope. */
  submitStepValidation(scope: ReleaseScope, args: JsonObject): JsonObject;
}

/**
 * Creates the engine. Each method returns a result matching its tool's output schema or throws GuidedError
 * (workflow_checkpoint_error / workflow_protocol_error) with a message that never contains participant data.
 */
export function createGuidedEngine(deps: GuidedEngineDeps): GuidedEngine {
  const d: GuidedEngineDeps = {
    signer: deps.signer,
    clock: deps.clock,
    ...(deps.checkpointMaxAgeMs === undefined ? {} : { checkpointMaxAgeMs: deps.checkpointMaxAgeMs }),
  };
  return Object.freeze({
    startWorkflow: (scope: ReleaseScope, args: JsonObject) => startWorkflow(d, scope, args),
    continueWorkflow: (scope: ReleaseScope, args: JsonObject, migrationTarget?: ReleaseScope) =>
      continueWorkflow(d, scope, args, migrationTarget),
    prepareStepValidation: (scope: ReleaseScope, args: JsonObject) => prepareStepValidation(d, scope, args),
    submitStepValidation: (scope: ReleaseScope, args: JsonObject) => submitStepValidation(d, scope, args),
  });
}
