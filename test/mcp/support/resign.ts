/**
 * Tokens a server holding the same signing key would issue, for checks no faithful harness can reach: a checkpoint or a
 * validation bundle re-signed with the test key after one receipt was dropped. The server verifies them as its own, so
 * what the test sees is the engine's check itself, not a signature failure.
 */
import { sha256Hex } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { issueBundle } from '../../../src/guided/checkpoint/bundle.js';
import type { BundleState } from '../../../src/guided/checkpoint/bundle.js';
import { issueCheckpoint } from '../../../src/guided/checkpoint/issue.js';
import { envelopeJson } from '../../../src/guided/checkpoint/state.js';
import type { CheckpointState } from '../../../src/guided/checkpoint/state.js';
import { testSigner } from './connect.js';

/** The checkpoint envelope re-signed after `change` edited its state. */
export function resignCheckpoint(
  envelope: JsonObject,
  change: (state: CheckpointState) => CheckpointState,
): JsonObject {
  const { key_id: _key, token: _token, ...state } = envelope;
  return envelopeJson(issueCheckpoint(testSigner(), change(structuredClone(state) as unknown as CheckpointState)));
}

/** The validation bundle re-signed for `checkpoint` after `change` edited it. */
export function resignBundle(
  bundle: JsonObject,
  checkpoint: JsonObject,
  change: (state: BundleState) => BundleState,
): JsonObject {
  const { key_id: _key, validation_token: _token, ...state } = bundle;
  const bound = {
    ...(structuredClone(state) as unknown as BundleState),
    checkpoint_sha256: sha256Hex(checkpoint['token'] as string),
  };
  return issueBundle(testSigner(), change(bound));
}
