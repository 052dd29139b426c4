/**
 * Published shapes for the two signed artefacts the harness carries: the checkpoint envelope (identity + continuation
 * token) and the validation bundle (deterministic receipts + validation token). A harness copies both back unchanged,
 * so their fields are described as what they are, not as something to fill in.
 */
import type { JsonObject } from '../../core/index.js';
import {
  Limits,
  arrayOf,
  artifactDigests,
  bundleTokenSchema,
  checkpointTokenSchema,
  closedObject,
  hostBinding,
  id,
  keyId,
  nullableSha256,
  pinnedRef,
  release,
  sha256,
  timestamp,
  validatorReceipts,
  version,
} from './primitives.js';
import { publish, ref } from './published.js';

/** Registry identifiers (`registry_id`) share the release-name alphabet. */
export const registryIdSchema = release;

/**
 * The checkpoint envelope: every identity field is repeated inside the signed `token` and must agree with it. It holds
 * digests only: confirmed state, artifact bodies and validator findings never appear here.
 */
export const checkpointEnvelopeDef = publish(
  'checkpoint-envelope',
  'Workflow checkpoint envelope',
  closedObject({
    registry_id: ref(registryIdSchema, 'Signed; as received.'),
    registry_release: ref(release, 'Release the checkpoint is pinned to; as received.'),
    manifest_sha256: ref(sha256, 'Signed; as received.'),
    workflow: ref(pinnedRef, 'Signed; as received.'),
    current_step: ref(id, 'The active step; as received.'),
    sequence: { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'Signed; as received.' },
    parent_checkpoint_sha256: ref(nullableSha256, 'Signed; as received.'),
    confirmed_state_sha256: ref(sha256, 'Digest of the confirmed state it was issued with; as received.'),
    artifacts: ref(artifactDigests, 'Artifact receipts (id → SHA-256); as received.'),
    validators: ref(validatorReceipts, 'Validator pass receipts; as received.'),
    host: ref(hostBinding, 'Host binding from start; as received.'),
    issued_at: ref(timestamp, 'Signed; as received.'),
    key_id: ref(keyId, 'Signing key; as received.'),
    token: { ...checkpointTokenSchema, description: 'Signature over all of the above; as received.' },
  }),
);

/** One validator as the bundle binds it: exact instruction digest and input artifact digests. */
const bundleValidatorSchema: JsonObject = closedObject({
  validator_id: ref(id, 'As received.'),
  validator_version: ref(version, 'As received.'),
  instruction_sha256: ref(sha256, 'As received.'),
  input_artifacts: ref(artifactDigests, 'As received.'),
  input_sha256: ref(sha256, 'As received.'),
  required: { type: 'boolean', description: 'As received.' },
  report_required: { type: 'boolean', description: 'As received.' },
});

/** The validation bundle issued by prepare_step_validation and presented back to submit_step_validation. */
export const validationBundleDef = publish(
  'validation-bundle',
  'Validation bundle',
  closedObject({
    registry_id: ref(registryIdSchema, 'As received.'),
    registry_release: ref(release, 'As received.'),
    manifest_sha256: ref(sha256, 'As received.'),
    workflow: ref(pinnedRef, 'As received.'),
    step_id: ref(id, 'Step the bundle validates; as received.'),
    checkpoint_sha256: ref(sha256, 'Digest of the checkpoint prepare was called with; as received.'),
    artifacts: ref(artifactDigests, 'Receipts of the artifacts prepare checked; as received.'),
    validators: { ...arrayOf(bundleValidatorSchema, Limits.reports), description: 'Validators bound; as received.' },
    issued_at: ref(timestamp, 'As received.'),
    key_id: ref(keyId, 'As received.'),
    validation_token: { ...bundleTokenSchema, description: 'Signature over the bundle; as received.' },
  }),
);
