/**
 * Issuing the next checkpoint in a chain: sequence + 1, parent = digest of the previous token, fresh issue time.
 * Entering a step (any change of position) drops the receipts of that step's own outputs: a step reached again
 * through a branch back must produce its outputs anew, never count as done because an earlier visit's receipts are
 * still in the checkpoint (continue_workflow must not advance a gated step merely because it was called).
 */
import { issueCheckpoint } from '../checkpoint/issue.js';
import type { CheckpointState, IssuedCheckpoint } from '../checkpoint/state.js';
import type { VerifiedCheckpoint } from '../checkpoint/verify.js';
import { nowIso } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';

/** The artifact receipts without those of the outputs of the step being entered. */
function withoutOutputsOf(
  previous: VerifiedCheckpoint,
  stepId: string,
  artifacts: Readonly<Record<string, string>>,
): Record<string, string> {
  const outputs = new Set((previous.index.steps.get(stepId)?.outputs ?? []).map((o) => o.artifact_id));
  return Object.fromEntries(Object.entries(artifacts).filter(([id]) => !outputs.has(id)));
}

/** Signs the successor of `previous` with the given changes (position, digests, receipts). */
export function successor(
  deps: GuidedEngineDeps,
  previous: VerifiedCheckpoint,
  changes: Partial<Pick<CheckpointState, 'current_step' | 'confirmed_state_sha256' | 'artifacts' | 'validators'>>,
): IssuedCheckpoint {
  const entered = changes.current_step;
  const artifacts = changes.artifacts ?? previous.state.artifacts;
  return issueCheckpoint(deps.signer, {
    ...previous.state,
    ...changes,
    artifacts: entered === undefined ? artifacts : withoutOutputsOf(previous, entered, artifacts),
    sequence: previous.state.sequence + 1,
    parent_checkpoint_sha256: previous.digest,
    issued_at: nowIso(deps),
  });
}
