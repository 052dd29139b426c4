/**
 * Checkpoint verification, fail closed: signature (key ring, constant time) → the token binds exactly the envelope
 * (version 2: the envelope's members have the signed digest and pass the envelope contract; version 1: the envelope
 * equals the state the compact body records) → age (issued_at against the lifetime: an expired checkpoint fails with
 * its own reason) → the state agrees with the pinned release (identity, manifest digest, workflow, step, pinned host
 * adapter, receipt keys). Any other failure is the one generic workflow_checkpoint_error.
 */
import { isJsonObject, sha256Hex } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { TokenSigner } from '../../core/index.js';
import type { StepDefinition } from '../../registry/model/index.js';
import { checkpointError, checkpointExpired } from '../errors.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import { CHECKPOINT_TOKEN_SCHEMA, checkpointTokens, decodeCheckpointBody } from './codec.js';
import { sameAsClean } from './same-json.js';
import { expectedEnvelope, stateOfEnvelope } from './state.js';
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

/**
 * The state a verified token vouches for, or undefined when the envelope is not exactly what it signed. Version 2:
 * the envelope's members (all but the token) have the signed digest and name the signing key: they are then exactly
 * an envelope the server built from a state and signed, so they are read as one. Version 1: the envelope equals the state the compact body records, its key id and the token (the expected
 * envelope comes from the strictly parsed, signed body, so it always canonicalises).
 */
function signedState(
  body: JsonObject,
  keyId: string,
  envelope: JsonObject,
  token: string,
): CheckpointState | undefined {
  if (body['schema'] === CHECKPOINT_TOKEN_SCHEMA) {
    const state = decodeCheckpointBody(body);
    return state !== undefined && sameAsClean(envelope, expectedEnvelope(state, keyId, token)) ? state : undefined;
  }
  const { token: _token, ...members } = envelope;
  if (members['key_id'] !== keyId || !checkpointTokens.binds(body, members)) {
    return undefined;
  }
  return stateOfEnvelope(members);
}

/** How old a checkpoint may be, judged at `now`. */
export interface CheckpointLifetime {
  readonly now: Date;
  readonly maxAgeMs: number;
}

/**
 * Verifies a checkpoint envelope against the signer's key ring and the pinned release scope. Throws
 * GuidedError('workflow_checkpoint_error') with one generic message on any disagreement, and with the reason
 * `checkpoint_expired` for a genuine checkpoint issued longer than `lifetime.maxAgeMs` ago. The age is read only once
 * the token vouched for it, so a forged issue time is a signature failure, never a different answer.
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
  const state = verified.ok ? signedState(verified.body, verified.keyId, envelope, token) : undefined;
  if (!verified.ok || state === undefined) throw checkpointError();
  if (lifetime !== undefined) {
    const issued = Date.parse(state.issued_at);
    if (Number.isNaN(issued)) throw checkpointError();
    if (lifetime.now.getTime() - issued > lifetime.maxAgeMs) throw checkpointExpired();
  }
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
