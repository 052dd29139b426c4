/**
 * Published shapes for the validation half of the protocol: submitted artifacts, the two attestation types, semantic
 * validator reports and their findings, and the deterministic failure objects prepare_step_validation returns.
 */
import type { JsonObject } from '../../core/index.js';
import { FailureCode, FailureReason } from '../codes.js';
import {
  Limits,
  arrayOf,
  assetKindSchema,
  closedObject,
  deliveryModeSchema,
  harnessSchema,
  hostCapabilitiesSchema,
  hostCapabilitySchema,
  idSchema,
  mapOf,
  mediaTypeSchema,
  nullable,
  nullableSha256Schema,
  pathSchema,
  refSchema,
  sha256Schema,
  uriSchema,
  validatorCapabilitiesSchema,
  validatorCapabilitySchema,
  versionSchema,
  writePolicySchema,
} from './primitives.js';
import { publish } from './published.js';

/** One artifact body as the harness wrote it; transient (reduced to a SHA-256 receipt, never stored). */
export const artifactDef = publish(
  'artifact',
  'Submitted artifact',
  closedObject({
    artifact_id: idSchema,
    media_type: mediaTypeSchema,
    content: { type: 'string', maxLength: Limits.artifactChars },
    path: pathSchema,
  }),
);

/** Setup-workspace proof of what the host delivered and how, bound to the checkpoint's host binding. */
export const hostAttestationDef = publish(
  'host-attestation',
  'Setup host attestation',
  closedObject({
    harness: harnessSchema,
    adapter: refSchema,
    host_capabilities: hostCapabilitiesSchema,
    validator_capabilities: validatorCapabilitiesSchema,
    assets: arrayOf(
      closedObject({
        kind: assetKindSchema,
        asset_id: idSchema,
        version: versionSchema,
        sha256: sha256Schema,
        delivery: deliveryModeSchema,
        path: nullable(pathSchema),
      }),
    ),
  }),
);

/** Non-setup proof that the harness read back each declared output from its declared, symlink-free path. */
export const outputAttestationDef = publish(
  'output-attestation',
  'Step output attestation',
  closedObject({
    step_id: idSchema,
    outputs: arrayOf(
      closedObject({
        artifact_id: idSchema,
        path: pathSchema,
        owner_step: idSchema,
        media_type: mediaTypeSchema,
        schema_sha256: nullableSha256Schema,
        max_bytes: { type: 'integer', minimum: 1, maximum: Limits.artifactChars * 4 },
        content_sha256: sha256Schema,
        symlink_free: { type: 'boolean' },
        readback_verified: { type: 'boolean' },
        write_policy: writePolicySchema,
      }),
      Limits.artifacts,
    ),
  }),
);

const findingShape: JsonObject = closedObject(
  {
    severity: { type: 'string', enum: ['error', 'warning', 'info'] },
    message: { type: 'string', maxLength: Limits.findingMessageChars },
    artifact_id: idSchema,
    location: { type: 'string', maxLength: Limits.findingLocationChars },
  },
  ['artifact_id', 'location'],
);

/** One semantic validator report from a host-native validator subagent. Findings are echoed, never stored. */
export const validatorReportDef = publish(
  'validator-report',
  'Semantic validator report',
  closedObject({
    validator_id: idSchema,
    validator_version: versionSchema,
    instruction_sha256: sha256Schema,
    input_artifacts: mapOf(idSchema, sha256Schema, Limits.artifacts * 4),
    validated_by: closedObject({ harness: harnessSchema, adapter_version: versionSchema }),
    outcome: { type: 'string', enum: ['passed', 'failed'] },
    findings: arrayOf(findingShape, Limits.findings),
  }),
);

/** A finding echoed back to the caller that submitted it, tagged with its validator. */
export const reportedFindingDef = publish(
  'reported-finding',
  'Reported validator finding',
  closedObject(
    {
      validator_id: idSchema,
      validator_version: versionSchema,
      ...(findingShape['properties'] as Record<string, JsonObject>),
    },
    ['artifact_id', 'location'],
  ),
);

/** A closed deterministic failure: a code plus only release-defined or digest-level details. */
export const deterministicFailureDef = publish(
  'deterministic-failure',
  'Deterministic validation failure',
  closedObject(
    {
      code: { type: 'string', enum: Object.values(FailureCode) },
      reason: { type: 'string', enum: Object.values(FailureReason) },
      artifact_id: idSchema,
      validator_id: idSchema,
      capability: { anyOf: [hostCapabilitySchema, validatorCapabilitySchema] },
      asset: closedObject({ kind: assetKindSchema, id: idSchema, version: versionSchema }),
      path: pathSchema,
      keyword: { type: 'string', maxLength: 64 },
      schema_path: { type: 'string', maxLength: 512 },
      limit: { type: 'integer', minimum: 0 },
    },
    ['reason', 'artifact_id', 'validator_id', 'capability', 'asset', 'path', 'keyword', 'schema_path', 'limit'],
  ),
);

/** A validator the harness must run now (no fresh pass receipt for these exact inputs). */
export const preparedValidatorDef = publish(
  'prepared-validator',
  'Validator to run',
  closedObject({
    validator_id: idSchema,
    validator_version: versionSchema,
    title: { type: 'string', maxLength: Limits.titleLength },
    required: { type: 'boolean' },
    instruction_sha256: sha256Schema,
    input_artifacts: mapOf(idSchema, sha256Schema, Limits.artifacts * 4),
    uri: uriSchema,
    brief_uri: uriSchema,
  }),
);
