/**
 * rimthan.continue_workflow: verify the checkpoint, check the prior confirmed-state digest, accept a proposed next
 * state only with contemporaneous confirmations of every changed field, then either re-issue the current gated step
 * (never skipped merely by calling continue), advance an ungated (or already satisfied) step by one transition, ask
 * its one question, or report completion; entering a route whose validators need a capability the host lacks is blocked. A `migration` request is handed to the migration path.
 */
import { RimthanError } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { IssuedCheckpoint } from '../checkpoint/state.js';
import { envelopeJson } from '../checkpoint/state.js';
import { verifyCheckpoint } from '../checkpoint/verify.js';
import type { VerifiedCheckpoint } from '../checkpoint/verify.js';
import { ProgressStatus } from '../codes.js';
import type { ReleaseScope } from '../scope.js';
import {
  changeConfirmationBlockers,
  projectionDigest,
  projectionOf,
  requirePriorState,
  requireValidState,
} from './confirmed-state.js';
import type { Projection } from './confirmed-state.js';
import { blockersJson, checkpointLifetime } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';
import { migrateWorkflow } from './migrate.js';
import { isSatisfied } from './receipts.js';
import { boundAdapter, stepPayload } from './step-payload.js';
import { successor } from './succession.js';
import { entryBlockers, isGated, nextTransition } from './transitions.js';

function result(
  status: ProgressStatus,
  checkpoint: IssuedCheckpoint,
  extra: {
    step?: JsonObject | null;
    question?: JsonObject | null;
    blockers?: JsonObject[];
    migration?: JsonObject | null;
  },
): JsonObject {
  return {
    status,
    checkpoint: envelopeJson(checkpoint),
    step: extra.step ?? null,
    question: extra.question ?? null,
    blockers: extra.blockers ?? [],
    migration: extra.migration ?? null,
  };
}

/** rimthan.continue_workflow (and, with `migration`, explicit release migration). */
export function continueWorkflow(
  deps: GuidedEngineDeps,
  scope: ReleaseScope,
  args: JsonObject,
  migrationTarget: ReleaseScope | undefined,
): JsonObject {
  const current = verifyCheckpoint(deps.signer, scope, args['checkpoint'], checkpointLifetime(deps));
  const prior = projectionOf(args['confirmed_state']);
  const priorDigest = requirePriorState(prior, current.state.confirmed_state_sha256);
  if (args['migration'] !== undefined) return migrateWorkflow(deps, current, args, migrationTarget);

  const proposed = args['next_confirmed_state'];
  const next: Projection = proposed === undefined ? prior : projectionOf(proposed);
  const nextDigest = proposed === undefined ? priorDigest : projectionDigest(next);
  const changed = nextDigest !== current.state.confirmed_state_sha256;
  if (changed) {
    requireValidState(scope, current.index.workflow.confirmed_state_schema, next);
    const blockers = changeConfirmationBlockers(prior, next, current.state.issued_at, deps.clock.now());
    if (blockers.length > 0) {
      return result(ProgressStatus.Blocked, current, { blockers: blockersJson(blockers) });
    }
  }
  // Same position with the new state digest when the state changed; otherwise the very same checkpoint.
  const here = (): IssuedCheckpoint | VerifiedCheckpoint =>
    changed ? successor(deps, current, { confirmed_state_sha256: nextDigest }) : current;
  const adapter = boundAdapter(scope, current.state.host);
  const payload = (stepId: string): JsonObject => {
    const step = current.index.steps.get(stepId);
    if (step === undefined) throw new RimthanError('invalid_release', 'a transition names a step the workflow lacks');
    return stepPayload(scope, current.index, step, current.state.host, adapter);
  };

  const step = current.step;
  const s = current.state;
  if (isGated(current.index, step) && !isSatisfied(scope, step, s.artifacts, s.validators)) {
    return result(ProgressStatus.Active, here(), { step: payload(step.id) });
  }
  const transition = nextTransition(step, next.state);
  if (transition.kind === 'question') {
    return result(ProgressStatus.InputRequired, here(), { question: transition.question });
  }
  if (transition.kind === 'terminal') return result(ProgressStatus.Completed, here(), {});
  // A route whose validators need a capability the host lacks: blocked here, the proposed state not taken, so the
  // participant can confirm another route (the same checkpoint stays valid).
  const lacking = entryBlockers(scope, current.index, transition.stepId, s.host.validator_capabilities);
  if (lacking.length > 0) return result(ProgressStatus.Blocked, current, { blockers: blockersJson(lacking) });
  const advanced = successor(deps, current, { current_step: transition.stepId, confirmed_state_sha256: nextDigest });
  return result(ProgressStatus.Active, advanced, { step: payload(transition.stepId) });
}
