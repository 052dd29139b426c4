import type { TokenSigner } from '../../core/index.js';
import { encodeCheckpointBody } from './codec.js';
import type { CheckpointState, IssuedCheckpoint } from './state.js';

/**
 * Signs a checkpoint state with the active key. The token's digest (the next checkpoint's parent) is taken when the
 * token comes back and verifies, so it is not computed here.
 */
export function issueCheckpoint(signer: TokenSigner, state: CheckpointState): IssuedCheckpoint {
  const token = signer.sign('checkpoint', encodeCheckpointBody(state));
  return { state, token, keyId: signer.activeKeyId };
}
