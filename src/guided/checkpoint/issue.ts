import { sha256Hex } from '../../core/index.js';
import type { TokenSigner } from '../../core/index.js';
import { encodeCheckpointBody } from './codec.js';
import type { CheckpointState, IssuedCheckpoint } from './state.js';

/** Signs a checkpoint state with the active key; the result carries the token digest used as the next parent. */
export function issueCheckpoint(signer: TokenSigner, state: CheckpointState): IssuedCheckpoint {
  const token = signer.sign('checkpoint', encodeCheckpointBody(state));
  return { state, token, keyId: signer.activeKeyId, digest: sha256Hex(token) };
}
