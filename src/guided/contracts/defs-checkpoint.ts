/**
 * Published shapes for the two signed artefacts the harness carries: the checkpoint envelope (identity + continuation
 * token) and the validation bundle (deterministic receipts + validation token).
 */
import type { JsonObject } from '../../core/index.js';
import {
  Limits,
  arrayOf,
  artifactReceiptsSchema,
  bundleTokenSchema,
  checkpointTokenSchema,
  closedObject,
  hostBindingSchema,
  idSchema,
  keyIdSchema,
  mapOf,
  nullableSha256Schema,
  refSchema,
  releaseSchema,
  sha256Schema,
  timestampSchema,
  validatorReceiptsSchema,
  versionSchema,
} from './primitives.js';
import { publish } from './published.js';

/** Registry identifiers (`registry_id`) share the release-name alphabet. */
export const registryIdSchema: JsonObject = releaseSchema;

/**
 * The checkpoint envelope: every identity field is repeated inside the signed `token` and must agree with it. It holds
 * digests only: confirmed state, artifact bodies and validator findings never appear here.
 */
export const checkpointEnvelopeDef = publish(
  'checkpoint-envelope',
  'Workflow checkpoint envelope',
  closedObject({
    registry_id: registryIdSchema,
    registry_release: releaseSchema,
    manifest_sha256: sha256Schema,
    workflow: refSchema,
    current_step: idSchema,
    sequence: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    parent_checkpoint_sha256: nullableSha256Schema,
    confirmed_state_sha256: sha256Schema,
    artifacts: artifactReceiptsSchema,
    validators: validatorReceiptsSchema,
    host: hostBindingSchema,
    issued_at: timestampSchema,
    key_id: keyIdSchema,
    token: checkpointTokenSchema,
  }),
);

/** One validator as the bundle binds it: exact instruction digest and input artifact digests. */
export const bundleValidatorSchema: JsonObject = closedObject({
  validator_id: idSchema,
  validator_version: versionSchema,
  instruction_sha256: sha256Schema,
  input_artifacts: mapOf(idSchema, sha256Schema, Limits.artifacts * 4),
  input_sha256: sha256Schema,
  required: { type: 'boolean' },
  report_required: { type: 'boolean' },
});

/** The validation bundle issued by prepare_step_validation and presented back to submit_step_validation. */
export const validationBundleDef = publish(
  'validation-bundle',
  'Validation bundle',
  closedObject({
    registry_id: registryIdSchema,
    registry_release: releaseSchema,
    manifest_sha256: sha256Schema,
    workflow: refSchema,
    step_id: idSchema,
    checkpoint_sha256: sha256Schema,
    artifacts: artifactReceiptsSchema,
    validators: arrayOf(bundleValidatorSchema, Limits.reports),
    issued_at: timestampSchema,
    key_id: keyIdSchema,
    validation_token: bundleTokenSchema,
  }),
);
