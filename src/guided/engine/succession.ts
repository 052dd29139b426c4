/** Issuing the next checkpoint in a chain: sequence + 1, parent = digest of the previous token, fresh issue time. */
import { issueCheckpoint } from '../checkpoint/issue.js';
import type { CheckpointState, IssuedCheckpoint } from '../checkpoint/state.js';
import type { VerifiedCheckpoint } from '../checkpoint/verify.js';
import { nowIso } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';

/** Signs the successor of `previous` with the given changes (position, digests, receipts). */
export function successor(
  deps: GuidedEngineDeps,
  previous: VerifiedCheckpoint,
  changes: Partial<Pick<CheckpointState, 'current_step' | 'confirmed_state_sha256' | 'artifacts' | 'validators'>>,
): IssuedCheckpoint {
  return issueCheckpoint(deps.signer, {
    ...previous.state,
    ...changes,
    sequence: previous.state.sequence + 1,
    parent_checkpoint_sha256: previous.digest,
    issued_at: nowIso(deps),
  });
}
