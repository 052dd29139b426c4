import type { TokenSigner } from '../../core/index.js';
import { checkpointTokens } from './codec.js';
import { signedMembers } from './state.js';
import type { CheckpointState, IssuedCheckpoint } from './state.js';

/**
 * Signs a checkpoint state with the active key: a digest-bound (version 2) token over the envelope's members
 * (bound-token.ts). The token's digest (the next checkpoint's parent) is taken when the token comes back and
 * verifies, so it is not computed here.
 */
export function issueCheckpoint(signer: TokenSigner, state: CheckpointState): IssuedCheckpoint {
  const keyId = signer.activeKeyId;
  const token = checkpointTokens.sign(signer, signedMembers(state, keyId));
  return { state, token, keyId };
}
