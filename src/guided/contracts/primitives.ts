/**
 * Leaf shapes and size limits shared by every guided contract. These are inline JSON Schema fragments (never
 * published on their own); the published shapes in `defs-*.ts` embed them by reference to the same objects.
 */
import type { JsonObject } from '../../core/index.js';
import {
  ArtifactMediaType,
  AssetKind,
  DeliveryMode,
  Harness,
  HostAssetKind,
  HostCapability,
  ValidatorCapability,
  WritePolicy,
} from '../../registry/model.js';

/** Size limits: every string and array on the wire is bounded by one of these. */
export const Limits = {
  idLength: 64,
  versionLength: 32,
  releaseLength: 128,
  pathLength: 512,
  titleLength: 256,
  descriptionLength: 1024,
  promptLength: 4000,
  checkpointTokenLength: 8192,
  bundleTokenLength: 16384,
  artifacts: 16,
  /**
   * Artifacts the prepare arguments may list: more than `artifacts`, so that a harness sending too many gets the
   * deterministic failure `artifact_count_exceeded` from the engine rather than an argument error.
   */
  artifactsListed: 64,
  artifactChars: 1_048_576,
  artifactTotalBytes: 4 * 1_048_576,
  assetContentChars: 262_144,
  stateFields: 64,
  stateStringChars: 16_384,
  stateArrayItems: 256,
  stateNestedProperties: 64,
  receipts: 64,
  reports: 32,
  findings: 64,
  findingMessageChars: 4000,
  findingLocationChars: 512,
  steps: 64,
  listItems: 64,
  failures: 256,
  blockers: 64,
  capabilityItems: 16,
  timestampLength: 40,
} as const;

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export const idSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.idLength,
  pattern: '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$',
};
export const versionSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.versionLength,
  pattern: '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$',
};
export const releaseSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.releaseLength,
  pattern: '^[a-z0-9][a-z0-9.-]{0,127}$',
};
export const sha256Schema: JsonObject = { type: 'string', minLength: 64, maxLength: 64, pattern: '^[0-9a-f]{64}$' };
export const nullableSha256Schema: JsonObject = { anyOf: [{ type: 'null' }, sha256Schema] };
export const keyIdSchema: JsonObject = { type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9._-]{1,64}$' };
/** RFC 3339 timestamp (checked by pattern: the strict compiler has no `format` vocabulary). */
export const timestampSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.timestampLength,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$',
};
/** A project-relative POSIX path (normalisation is checked by the engine, not only by pattern). */
export const pathSchema: JsonObject = {
  type: 'string',
  minLength: 1,
  maxLength: Limits.pathLength,
  pattern: '^[^/\\\\\\u0000-\\u001f\\u007f][^\\\\\\u0000-\\u001f\\u007f]*$',
};
export const titleSchema: JsonObject = { type: 'string', maxLength: Limits.titleLength };
export const descriptionSchema: JsonObject = { type: 'string', maxLength: Limits.descriptionLength };
export const uriSchema: JsonObject = { type: 'string', maxLength: 1024, pattern: '^rimthan://' };
export const stateFieldSchema: JsonObject = { type: 'string', maxLength: 64, pattern: '^[a-z][a-z0-9_]{0,63}$' };
export const assetContentSchema: JsonObject = { type: 'string', maxLength: Limits.assetContentChars };
export const checkpointTokenSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.checkpointTokenLength,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
};
export const bundleTokenSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.bundleTokenLength,
  pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
};

export const harnessSchema: JsonObject = { type: 'string', enum: Object.values(Harness) };
export const hostCapabilitySchema: JsonObject = { type: 'string', enum: Object.values(HostCapability) };
export const validatorCapabilitySchema: JsonObject = { type: 'string', enum: Object.values(ValidatorCapability) };
export const hostAssetKindSchema: JsonObject = { type: 'string', enum: Object.values(HostAssetKind) };
export const assetKindSchema: JsonObject = { type: 'string', enum: Object.values(AssetKind) };
export const deliveryModeSchema: JsonObject = { type: 'string', enum: Object.values(DeliveryMode) };
export const mediaTypeSchema: JsonObject = { type: 'string', enum: Object.values(ArtifactMediaType) };
export const writePolicySchema: JsonObject = { type: 'string', enum: Object.values(WritePolicy) };

export const hostCapabilitiesSchema: JsonObject = {
  type: 'array',
  maxItems: Limits.capabilityItems,
  uniqueItems: true,
  items: hostCapabilitySchema,
};
export const validatorCapabilitiesSchema: JsonObject = {
  type: 'array',
  maxItems: Limits.capabilityItems,
  uniqueItems: true,
  items: validatorCapabilitySchema,
};

/** A closed object: every listed property required unless named in `optional`. */
export function closedObject(properties: Record<string, JsonObject>, optional: readonly string[] = []): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

/** A bounded array of `items`. */
export function arrayOf(items: JsonObject, maxItems: number = Limits.listItems): JsonObject {
  return { type: 'array', maxItems, items };
}

/** A bounded string-keyed map (`propertyNames` by `keySchema`) of `values`. */
export function mapOf(keySchema: JsonObject, values: JsonObject, maxProperties: number = Limits.receipts): JsonObject {
  return { type: 'object', maxProperties, propertyNames: keySchema, additionalProperties: values };
}

/** `null` or the given shape. */
export function nullable(schema: JsonObject): JsonObject {
  return { anyOf: [{ type: 'null' }, schema] };
}

/** A pinned reference `{id, version}`. */
export const refSchema: JsonObject = closedObject({ id: idSchema, version: versionSchema });

/** `validator_id@version` key of the validator receipt map. */
export const validatorKeySchema: JsonObject = {
  type: 'string',
  maxLength: Limits.idLength + Limits.versionLength + 1,
  pattern: '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*@(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$',
};

/** The host binding carried in a checkpoint (sorted capability sets). */
export const hostBindingSchema: JsonObject = closedObject({
  harness: harnessSchema,
  adapter_id: idSchema,
  adapter_version: versionSchema,
  host_capabilities: hostCapabilitiesSchema,
  validator_capabilities: validatorCapabilitiesSchema,
});

/** Artifact receipts: artifact ID → SHA-256 of its UTF-8 bytes. */
export const artifactReceiptsSchema: JsonObject = mapOf(idSchema, sha256Schema);

/** Validator pass receipts: `validator_id@version` → outcome and the digest of its input artifact set. */
export const validatorReceiptsSchema: JsonObject = mapOf(
  validatorKeySchema,
  closedObject({ outcome: { type: 'string', enum: ['passed'] }, input_sha256: sha256Schema }),
);
