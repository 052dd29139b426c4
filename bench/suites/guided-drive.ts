/**
 * Walks the packaged research-decision workflow (desk-research route) with the participant harness and records the
 * argument sets the guided suite times: a start, an ungated continue, a gated prepare and its submit, plus the
 * checkpoints along the way. Every call is checked for the status a faithful participant expects.
 */
import type { JsonObject } from '../../src/core/index.js';
import { GuidedToolName, type ReleaseScope } from '../../src/guided/index.js';
import type { Release } from '../../src/registry/index.js';
import {
  confirmed,
  moved,
  prepareArgs,
  startArgs,
  stepIdOf,
  submitArgs,
  type GuidedClient,
  type Position,
} from './guided-participant.js';

export interface Walk {
  readonly start: { readonly args: JsonObject; readonly result: JsonObject };
  /** continue_workflow on the ungated interview step (advances to confirm-contract). */
  readonly continue: { readonly args: JsonObject; readonly result: JsonObject };
  /** prepare / submit on the gated desk-research step (two artifacts, two validators). */
  readonly prepare: { readonly args: JsonObject; readonly result: JsonObject };
  readonly submit: { readonly args: JsonObject; readonly result: JsonObject };
  /** Position at desk-research (to prepare other artifact bodies there). */
  readonly desk: Position;
  /** Checkpoint envelopes in the order they were issued, with the step they point at. */
  readonly checkpoints: readonly { readonly step: string; readonly envelope: JsonObject }[];
  /** The checkpoint after the final submit (status completed). */
  readonly completed: JsonObject;
}

function expect(result: JsonObject, status: string, what: string): JsonObject {
  if (result['status'] !== status) {
    throw new Error(`${what}: expected status ${status}, got ${JSON.stringify(result['status'])}`);
  }
  return result;
}

/** Drives one participant from start to completed; throws on any unexpected status. */
export function walkWorkflow(
  client: GuidedClient,
  scope: ReleaseScope,
  release: Release,
  bodies: Record<string, string>,
): Walk {
  const start = client.call(GuidedToolName.StartWorkflow, scope);
  const cont = client.call(GuidedToolName.ContinueWorkflow, scope);
  const prepare = client.call(GuidedToolName.PrepareStepValidation, scope);
  const submit = client.call(GuidedToolName.SubmitStepValidation, scope);
  const checkpoints: { step: string; envelope: JsonObject }[] = [];
  const note = (pos: Position): Position => {
    checkpoints.push({ step: stepIdOf(pos), envelope: pos.checkpoint });
    return pos;
  };

  const sArgs = startArgs(release);
  const sResult = expect(start(sArgs), 'active', 'start_workflow');
  let pos = note(moved(sResult, sArgs['confirmed_state'] as JsonObject));

  // setup-workspace: host attestation + workspace manifest, no validators.
  const setupPrepared = expect(prepare(prepareArgs(pos, bodies)), 'ready_for_semantic_validation', 'prepare setup');
  pos = note(moved(expect(submit(submitArgs(pos, setupPrepared)), 'advanced', 'submit setup'), pos.state));
  if (stepIdOf(pos) !== 'interview') throw new Error(`after setup: ${stepIdOf(pos)}`);

  const cArgs: JsonObject = { checkpoint: pos.checkpoint, confirmed_state: pos.state };
  const cResult = expect(cont(cArgs), 'active', 'continue interview');
  pos = note(moved(cResult, pos.state));
  pos = note(moved(cont({ checkpoint: pos.checkpoint, confirmed_state: pos.state }), pos.state));
  if (stepIdOf(pos) !== 'select-route') throw new Error(`after confirm-contract: ${stepIdOf(pos)}`);

  // From research-decision@1.3.0 on select-route is gated (the research plan); its submit asks the route question.
  const routeStep = pos.step['step'] as JsonObject;
  if (((routeStep['outputs'] as JsonObject[] | undefined) ?? []).length > 0) {
    const planned = expect(prepare(prepareArgs(pos, bodies)), 'ready_for_semantic_validation', 'prepare select-route');
    pos = note({
      ...moved(expect(submit(submitArgs(pos, planned)), 'input_required', 'submit plan'), pos.state),
      step: pos.step,
    });
  }
  const withRoute = confirmed({ ...(pos.state['state'] as JsonObject), research_route: 'desk-research' });
  const routed = cont({ checkpoint: pos.checkpoint, confirmed_state: pos.state, next_confirmed_state: withRoute });
  pos = note(moved(expect(routed, 'active', 'continue select-route'), withRoute));
  if (stepIdOf(pos) !== 'desk-research') throw new Error(`after select-route: ${stepIdOf(pos)}`);
  const desk = pos;

  const pArgs = prepareArgs(pos, bodies);
  const pResult = expect(prepare(pArgs), 'ready_for_semantic_validation', 'prepare desk-research');
  const uArgs = submitArgs(pos, pResult);
  const uResult = expect(submit(uArgs), 'advanced', 'submit desk-research');
  pos = note(moved(uResult, pos.state));
  if (stepIdOf(pos) !== 'decision-record') throw new Error(`after desk-research: ${stepIdOf(pos)}`);

  const lastPrepared = expect(prepare(prepareArgs(pos, bodies)), 'ready_for_semantic_validation', 'prepare decision');
  const done = expect(submit(submitArgs(pos, lastPrepared)), 'completed', 'submit decision-record');
  return {
    start: { args: sArgs, result: sResult },
    continue: { args: cArgs, result: cResult },
    prepare: { args: pArgs, result: pResult },
    submit: { args: uArgs, result: uResult },
    desk,
    checkpoints,
    completed: done['checkpoint'] as JsonObject,
  };
}
