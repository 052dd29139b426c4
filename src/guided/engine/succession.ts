/**
 * Issuing the next checkpoint in a chain: sequence + 1, parent = digest of the previous token, fresh issue time.
 * Entering a step (any change of position) drops the receipts of that step's own outputs and of its own validators: a
 * step reached again through a branch back, or a step whose validators an earlier step happened to run on the same
 * inputs, must be prepared and submitted anew, never count as done because receipts from before it was entered are
 * still in the checkpoint (continue_workflow must not advance a gated step merely because it was called). Within one
 * visit, pass receipts are still reused while their inputs are unchanged (prepare returns only absent or stale ones).
 */
import { issueCheckpoint } from '../checkpoint/issue.js';
import type { CheckpointState, IssuedCheckpoint, ValidatorReceipt } from '../checkpoint/state.js';
import type { VerifiedCheckpoint } from '../checkpoint/verify.js';
import { refKey } from '../scope.js';
import { nowIso } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';

/** `record` without the members whose keys are in `drop`. */
function without<T>(record: Readonly<Record<string, T>>, drop: ReadonlySet<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !drop.has(key)));
}

/** The receipts that remain when `stepId` is entered: none for its outputs, none for its validators. */
function receiptsOnEntry(
  previous: VerifiedCheckpoint,
  stepId: string,
  artifacts: Readonly<Record<string, string>>,
  validators: Readonly<Record<string, ValidatorReceipt>>,
): Pick<CheckpointState, 'artifacts' | 'validators'> {
  const step = previous.index.steps.get(stepId);
  const outputs = new Set((step?.outputs ?? []).map((o) => o.artifact_id));
  const own = new Set((step?.validators ?? []).map((v) => refKey(v.id, v.version)));
  return { artifacts: without(artifacts, outputs), validators: without(validators, own) };
}

/** Signs the successor of `previous` with the given changes (position, digests, receipts). */
export function successor(
  deps: GuidedEngineDeps,
  previous: VerifiedCheckpoint,
  changes: Partial<Pick<CheckpointState, 'current_step' | 'confirmed_state_sha256' | 'artifacts' | 'validators'>>,
): IssuedCheckpoint {
  const entered = changes.current_step;
  const artifacts = changes.artifacts ?? previous.state.artifacts;
  const validators = changes.validators ?? previous.state.validators;
  return issueCheckpoint(deps.signer, {
    ...previous.state,
    ...changes,
    ...(entered === undefined ? { artifacts, validators } : receiptsOnEntry(previous, entered, artifacts, validators)),
    sequence: previous.state.sequence + 1,
    parent_checkpoint_sha256: previous.digest,
    issued_at: nowIso(deps),
  });
}
