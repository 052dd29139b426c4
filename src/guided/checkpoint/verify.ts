/**
 * Checkpoint verification, fail closed: signature (key ring, constant time) → strict decoding of the compact body →
 * age (issued_at against the lifetime: an expired checkpoint fails before anything else is looked at, with its own
 * reason) → the envelope equals the signed state → the body agrees with the pinned release (identity, manifest digest,
 * workflow, step, pinned host adapter, receipt keys). Any other failure is the one generic workflow_checkpoint_error.
 */
import { isJsonObject, sha256Hex } from '../../core/index.js';
import type { TokenSigner } from '../../core/index.js';
import type { StepDefinition } from '../../registry/model.js';
import { checkpointError, checkpointExpired } from '../errors.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import { decodeCheckpointBody } from './codec.js';
import { sameAsClean } from './same-json.js';
import { expectedEnvelope } from './state.js';
import type { CheckpointState, IssuedCheckpoint } from './state.js';

/** A checkpoint that verified, with the workflow and step it points at in the pinned release. */
export interface VerifiedCheckpoint extends IssuedCheckpoint {
  /** SHA-256 of the token string: the parent digest of the next checkpoint and the binding of validation bundles. */
  readonly digest: string;
  readonly index: WorkflowIndex;
  readonly step: StepDefinition;
}

/** True when the body agrees with the pinned release in every identity it names. */
function agreesWithScope(state: CheckpointState, scope: ReleaseScope): WorkflowIndex | undefined {
  const release = scope.release;
  if (state.registry_id !== release.registry_id || state.registry_release !== release.release) return undefined;
  if (state.manifest_sha256 !== release.manifest_sha256) return undefined;
  const index = scope.workflow(state.workflow.id, state.workflow.version);
  if (index === undefined || !index.steps.has(state.current_step)) return undefined;
  const pinned = index.workflow.host_adapters[state.host.harness];
  if (pinned === undefined || pinned.id !== state.host.adapter_id || pinned.version !== state.host.adapter_version) {
    return undefined;
  }
  if (Object.keys(state.artifacts).some((id) => !index.artifacts.has(id))) return undefined;
  if (Object.keys(state.validators).some((key) => !index.validatorKeys.has(key))) return undefined;
  return Number.isNaN(Date.parse(state.issued_at)) ? undefined : index;
}

/** How old a checkpoint may be, judged at `now`. */
export interface CheckpointLifetime {
  readonly now: Date;
  readonly maxAgeMs: number;
}

/**
 * Verifies a checkpoint envelope against the signer's key ring and the pinned release scope. Throws
 * GuidedError('workflow_checkpoint_error') with one generic message on any disagreement, and with the reason
 * `checkpoint_expired` for a genuine checkpoint issued longer than `lifetime.maxAgeMs` ago. The age is read from the
 * signed body only, so a forged issue time is a signature failure, never a different answer.
 */
export function verifyCheckpoint(
  signer: TokenSigner,
  scope: ReleaseScope,
  envelope: unknown,
  lifetime?: CheckpointLifetime,
): VerifiedCheckpoint {
  if (!isJsonObject(envelope)) throw checkpointError();
  const token = envelope['token'];
  if (typeof token !== 'string') throw checkpointError();
  const verified = signer.verify('checkpoint', token);
  const state = verified.ok ? decodeCheckpointBody(verified.body) : undefined;
  if (!verified.ok || state === undefined) throw checkpointError();
  if (lifetime !== undefined) {
    const issued = Date.parse(state.issued_at);
    if (Number.isNaN(issued)) throw checkpointError();
    if (lifetime.now.getTime() - issued > lifetime.maxAgeMs) throw checkpointExpired();
  }
  // The envelope must be exactly the signed state, its key id and the token: nothing more, nothing different.
  // The expected envelope comes from the strictly parsed, signed body, so it always canonicalises.
  if (!sameAsClean(envelope, expectedEnvelope(state, verified.keyId, token))) throw checkpointError();
  const index = agreesWithScope(state, scope);
  const step = index?.steps.get(state.current_step);
  if (index === undefined || step === undefined) throw checkpointError();
  return {
    state,
    token,
    keyId: verified.keyId,
    digest: sha256Hex(token),
    index,
    step,
  };
}
