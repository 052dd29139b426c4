/**
 * What a checkpoint proves, as plain data: release identity, position, digests and receipts. The envelope carries it
 * in the clear next to the signed token, whose body records the same state compactly (see codec.ts). Digest-heavy,
 * content-light: no confirmed-state values, artifact bodies or findings.
 */
import type { JsonObject } from '../../core/index.js';
import type { Harness, HostCapability, ValidatorCapability } from '../../registry/model/index.js';

/** The host the checkpoint is bound to (capability lists sorted, unique). */
export interface HostBinding {
  readonly harness: Harness;
  readonly adapter_id: string;
  readonly adapter_version: string;
  readonly host_capabilities: readonly HostCapability[];
  readonly validator_capabilities: readonly ValidatorCapability[];
}

export interface ValidatorReceipt {
  readonly outcome: 'passed';
  readonly input_sha256: string;
}

export interface CheckpointState {
  readonly registry_id: string;
  readonly registry_release: string;
  readonly manifest_sha256: string;
  readonly workflow: { readonly id: string; readonly version: string };
  readonly current_step: string;
  readonly sequence: number;
  readonly parent_checkpoint_sha256: string | null;
  readonly confirmed_state_sha256: string;
  /** Artifact ID → SHA-256 of the accepted artifact's UTF-8 bytes. */
  readonly artifacts: Readonly<Record<string, string>>;
  /** `validator_id@version` → pass receipt. */
  readonly validators: Readonly<Record<string, ValidatorReceipt>>;
  readonly host: HostBinding;
  readonly issued_at: string;
}

/** A checkpoint as returned to the harness: the state in the clear, its key id, and the signed token. */
export interface IssuedCheckpoint {
  readonly state: CheckpointState;
  readonly token: string;
  readonly keyId: string;
}

/**
 * The envelope's JSON members for `state` plus `key_id` and `token` (none when `token` is undefined), built as one
 * object literal (a spread of a 12-member object costs more than the literal). `copy` copies the nested maps and
 * lists, so the result shares nothing with the state; without it they are shared, for a read-only comparison.
 */
function envelopeOf(state: CheckpointState, keyId: string, token: string | undefined, copy: boolean): JsonObject {
  const host = state.host;
  return {
    registry_id: state.registry_id,
    registry_release: state.registry_release,
    manifest_sha256: state.manifest_sha256,
    workflow: { id: state.workflow.id, version: state.workflow.version },
    current_step: state.current_step,
    sequence: state.sequence,
    parent_checkpoint_sha256: state.parent_checkpoint_sha256,
    confirmed_state_sha256: state.confirmed_state_sha256,
    artifacts: copy ? { ...state.artifacts } : state.artifacts,
    validators: copy
      ? Object.fromEntries(
          Object.entries(state.validators).map(([k, r]) => [k, { outcome: r.outcome, input_sha256: r.input_sha256 }]),
        )
      : (state.validators as unknown as JsonObject),
    host: {
      harness: host.harness,
      adapter_id: host.adapter_id,
      adapter_version: host.adapter_version,
      host_capabilities: copy ? [...host.host_capabilities] : (host.host_capabilities as string[]),
      validator_capabilities: copy ? [...host.validator_capabilities] : (host.validator_capabilities as string[]),
    },
    issued_at: state.issued_at,
    key_id: keyId,
    ...(token === undefined ? {} : { token }),
  };
}

/** The envelope the harness stores in .rimthan/workflow-session.json and presents on every later call. */
export function envelopeJson(checkpoint: IssuedCheckpoint): JsonObject {
  return envelopeOf(checkpoint.state, checkpoint.keyId, checkpoint.token, true);
}

/**
 * What an envelope presenting `state` must be, exactly (for comparison only: it shares the state's nested maps and
 * lists, so it must not be handed out or changed).
 */
export function expectedEnvelope(state: CheckpointState, keyId: string, token: string): JsonObject {
  return envelopeOf(state, keyId, token, false);
}

/** The members a digest-bound (version 2) checkpoint token signs: the envelope without its token. */
export function signedMembers(state: CheckpointState, keyId: string): JsonObject {
  return envelopeOf(state, keyId, undefined, false);
}

/**
 * The state an envelope states in the clear (for a version 2 token, once the token bound exactly these members). The
 * envelope must already have passed the checkpoint-envelope contract.
 */
export function stateOfEnvelope(envelope: JsonObject): CheckpointState {
  const e = envelope as unknown as CheckpointState;
  return {
    registry_id: e.registry_id,
    registry_release: e.registry_release,
    manifest_sha256: e.manifest_sha256,
    workflow: { id: e.workflow.id, version: e.workflow.version },
    current_step: e.current_step,
    sequence: e.sequence,
    parent_checkpoint_sha256: e.parent_checkpoint_sha256,
    confirmed_state_sha256: e.confirmed_state_sha256,
    artifacts: { ...e.artifacts },
    validators: Object.fromEntries(
      Object.entries(e.validators).map(([k, r]) => [k, { outcome: r.outcome, input_sha256: r.input_sha256 }]),
    ),
    host: {
      harness: e.host.harness,
      adapter_id: e.host.adapter_id,
      adapter_version: e.host.adapter_version,
      host_capabilities: [...e.host.host_capabilities],
      validator_capabilities: [...e.host.validator_capabilities],
    },
    issued_at: e.issued_at,
  };
}
