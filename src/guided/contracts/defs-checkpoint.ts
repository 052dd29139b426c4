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
    registry_id: ref(registryIdSchema),
    registry_release: ref(release),
    manifest_sha256: ref(sha256),
    workflow: ref(pinnedRef),
    current_step: ref(id),
    sequence: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    parent_checkpoint_sha256: nullableSha256,
    confirmed_state_sha256: ref(sha256),
    artifacts: ref(artifactDigests),
    validators: validatorReceipts,
    host: hostBinding,
    issued_at: ref(timestamp),
    key_id: ref(keyId),
    token: checkpointTokenSchema,
  }),
);

/** One validator as the bundle binds it: exact instruction digest and input artifact digests. */
const bundleValidatorSchema: JsonObject = closedObject({
  validator_id: ref(id),
  validator_version: ref(version),
  instruction_sha256: ref(sha256),
  input_artifacts: ref(artifactDigests),
  input_sha256: ref(sha256),
  required: { type: 'boolean' },
  report_required: { type: 'boolean' },
});

/** The validation bundle issued by prepare_step_validation and presented back to submit_step_validation. */
export const validationBundleDef = publish(
  'validation-bundle',
  'Validation bundle',
  closedObject({
    registry_id: ref(registryIdSchema),
    registry_release: ref(release),
    manifest_sha256: ref(sha256),
    workflow: ref(pinnedRef),
    step_id: ref(id),
    checkpoint_sha256: ref(sha256),
    artifacts: ref(artifactDigests),
    validators: arrayOf(bundleValidatorSchema, Limits.reports),
    issued_at: ref(timestamp),
    key_id: ref(keyId),
    validation_token: bundleTokenSchema,
  }),
);
