/**
 * rimthan.submit_step_validation: verify checkpoint, confirmed state and the signed validation bundle; verify the
 * exact report set; then either loop on the same step (validation_failed, findings echoed to this caller only, new
 * pass receipts kept so only failed validators re-run) or accept the step's artifact receipts and move on (advanced,
 * input_required or completed). Reports and findings are never stored or signed.
 */
import { RimthanError } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { verifyBundle } from '../checkpoint/bundle.js';
import type { IssuedCheckpoint, ValidatorReceipt } from '../checkpoint/state.js';
import { envelopeJson } from '../checkpoint/state.js';
import { checkpointLifetime } from './deps.js';
import { verifyCheckpoint } from '../checkpoint/verify.js';
import { SubmitStatus } from '../codes.js';
import { refKey } from '../scope.js';
import type { ReleaseScope } from '../scope.js';
import { projectionOf, requirePriorState } from './confirmed-state.js';
import type { GuidedEngineDeps } from './deps.js';
import { matchReports } from './reports.js';
import type { ValidatorReport } from './reports.js';
import { boundAdapter, stepPayload } from './step-payload.js';
import { successor } from './succession.js';
import { branchFieldTo, entryBlockers, nextTransition, questionFor } from './transitions.js';

function result(
  status: SubmitStatus,
  checkpoint: IssuedCheckpoint,
  extra: { step?: JsonObject; question?: JsonObject; findings: JsonObject[]; failed: JsonObject[] },
): JsonObject {
  return {
    status,
    checkpoint: envelopeJson(checkpoint),
    step: extra.step ?? null,
    question: extra.question ?? null,
    findings: extra.findings,
    failed_validators: extra.failed,
  };
}

/** rimthan.submit_step_validation: `validation_failed` on the same step, or `advanced` / `input_required` / `completed`. */
export function submitStepValidation(deps: GuidedEngineDeps, scope: ReleaseScope, args: JsonObject): JsonObject {
  const current = verifyCheckpoint(deps.signer, scope, args['checkpoint'], checkpointLifetime(deps));
  const projection = projectionOf(args['confirmed_state']);
  requirePriorState(projection, current.state.confirmed_state_sha256);
  const bundle = verifyBundle(deps.signer, current, args['validation_bundle']);
  const reports = args['reports'] as unknown as ValidatorReport[];
  const matched = matchReports(bundle, reports, current.state.host, current.state.validators);

  const validators: Record<string, ValidatorReceipt> = { ...current.state.validators };
  const findings: JsonObject[] = [];
  const failed: JsonObject[] = [];
  for (const { bundle: entry, report } of matched) {
    const key = refKey(entry.validator_id, entry.validator_version);
    if (report.outcome === 'passed') {
      validators[key] = { outcome: 'passed', input_sha256: entry.input_sha256 };
      continue;
    }
    delete validators[key];
    failed.push({ validator_id: entry.validator_id, validator_version: entry.validator_version });
    for (const f of report.findings) {
      findings.push({ validator_id: entry.validator_id, validator_version: entry.validator_version, ...f });
    }
  }
  // Any failed report keeps the step active (the spec: "if any validator fails"), optional validators included:
  // their findings are the same kind of evidence, and the harness fixes them and submits again.
  if (failed.length > 0) {
    const again = successor(deps, current, { validators });
    return result(SubmitStatus.ValidationFailed, again, { findings, failed });
  }

  const artifacts = { ...current.state.artifacts, ...bundle.artifacts };
  const transition = nextTransition(current.step, projection.state);
  if (
    transition.kind === 'step' &&
    entryBlockers(scope, current.index, transition.stepId, current.state.host.validator_capabilities).length > 0
  ) {
    // The confirmed route needs a validator capability the host lacks: the step's work is accepted and the route
    // question asked again (continue_workflow names the missing capability while that route stays confirmed).
    const field = branchFieldTo(current.step, transition.stepId);
    if (field === undefined)
      throw new RimthanError('invalid_release', 'a linear successor needs a capability the start did not');
    const accepted = successor(deps, current, { artifacts, validators });
    return result(SubmitStatus.InputRequired, accepted, {
      question: questionFor(current.step, field),
      findings,
      failed,
    });
  }
  if (transition.kind === 'step') {
    const next = current.index.steps.get(transition.stepId);
    if (next === undefined) throw new RimthanError('invalid_release', 'a transition names a step the workflow lacks');
    const advanced = successor(deps, current, { current_step: next.id, artifacts, validators });
    const step = stepPayload(scope, current.index, next, current.state.host, boundAdapter(scope, current.state.host));
    return result(SubmitStatus.Advanced, advanced, { step, findings, failed });
  }
  const accepted = successor(deps, current, { artifacts, validators });
  if (transition.kind === 'question') {
    return result(SubmitStatus.InputRequired, accepted, { question: transition.question, findings, failed });
  }
  return result(SubmitStatus.Completed, accepted, { findings, failed });
}
