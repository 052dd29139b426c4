/**
 * Leaf shapes and size limits shared by every guided contract. Each leaf used in more than one place is a named
 * `$defs` entry (`define`), reached by `$ref` from the shapes in `defs-*.ts`; it is never served on its own.
 */
import type { JsonObject } from '../../core/index.js';
import { define, ref } from './published.js';
import {
  ArtifactMediaType,
  AssetKind,
  DeliveryMode,
  Harness,
  HostAssetKind,
  HostCapability,
  ValidatorCapability,
  WritePolicy,
} from '../../registry/model/index.js';

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

export { SCHEMA_DIALECT } from './published.js';

const ID_PATTERN = '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$';
const VERSION_PATTERN = '(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})';

/** A closed set of strings (the values alone say they are strings: no `type`). */
const enumOf = (values: Record<string, string>): JsonObject => ({ enum: Object.values(values) });

export const id = define('id', { type: 'string', maxLength: Limits.idLength, pattern: ID_PATTERN });
export const version = define('version', {
  type: 'string',
  maxLength: Limits.versionLength,
  pattern: `^${VERSION_PATTERN}$`,
});
export const release = define('release', {
  type: 'string',
  maxLength: Limits.releaseLength,
  pattern: '^[a-z0-9][a-z0-9.-]{0,127}$',
});
/** Lower-case hex SHA-256 (the pattern fixes the length; `maxLength` states the bound every string has). */
export const sha256 = define('sha256', { type: 'string', maxLength: 64, pattern: '^[0-9a-f]{64}$' });
export const keyId = define('key-id', { type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9._-]{1,64}$' });
/** RFC 3339 timestamp (checked by pattern: the strict compiler has no `format` vocabulary). */
export const timestamp = define('timestamp', {
  type: 'string',
  maxLength: Limits.timestampLength,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$',
});
/** A project-relative POSIX path, at least one character (normalisation is checked by the engine, not only by pattern). */
export const path = define('path', {
  type: 'string',
  maxLength: Limits.pathLength,
  pattern: '^[^/\\\\\\u0000-\\u001f\\u007f][^\\\\\\u0000-\\u001f\\u007f]*$',
});
export const title = define('title', { type: 'string', maxLength: Limits.titleLength });
export const uri = define('uri', { type: 'string', maxLength: 1024, pattern: '^rimthan://' });
export const stateField = define('state-field', { type: 'string', maxLength: 64, pattern: '^[a-z][a-z0-9_]{0,63}$' });
export const assetContent = define('asset-content', { type: 'string', maxLength: Limits.assetContentChars });
const tokenPattern = '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$';
export const checkpointTokenSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.checkpointTokenLength,
  pattern: tokenPattern,
};
export const bundleTokenSchema: JsonObject = {
  type: 'string',
  maxLength: Limits.bundleTokenLength,
  pattern: tokenPattern,
};

export const harness = define('harness', enumOf(Harness));
export const hostCapability = define('host-capability', enumOf(HostCapability));
export const validatorCapability = define('validator-capability', enumOf(ValidatorCapability));
export const hostAssetKind = define('host-asset-kind', enumOf(HostAssetKind));
export const assetKind = define('asset-kind', enumOf(AssetKind));
export const deliveryMode = define('delivery-mode', enumOf(DeliveryMode));
export const mediaType = define('media-type', enumOf(ArtifactMediaType));
export const writePolicy = define('write-policy', enumOf(WritePolicy));
/** A capability a blocker or failure names: a host or a validator capability. */
export const anyCapability = define('capability', { anyOf: [ref(hostCapability), ref(validatorCapability)] });

export const hostCapabilities = define('host-capabilities', {
  type: 'array',
  maxItems: Limits.capabilityItems,
  uniqueItems: true,
  items: ref(hostCapability),
});
export const validatorCapabilities = define('validator-capabilities', {
  type: 'array',
  maxItems: Limits.capabilityItems,
  uniqueItems: true,
  items: ref(validatorCapability),
});

/** A closed object: every listed property required unless named in `optional` (no `required` when none is). */
export function closedObject(properties: Record<string, JsonObject>, optional: readonly string[] = []): JsonObject {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return required.length === 0
    ? { type: 'object', additionalProperties: false, properties }
    : { type: 'object', additionalProperties: false, required, properties };
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

/** A SHA-256 or `null` (inline: a named def costs more than the two places that use it). */
export const nullableSha256: JsonObject = nullable(ref(sha256));

/** A pinned reference `{id, version}`. */
export const pinnedRef = define(
  'ref',
  closedObject({ id: ref(id, 'Its id.'), version: ref(version, 'Its exact version.') }),
);

/** `validator_id@version` key of the validator receipt map. */
export const validatorKey = define('validator-key', {
  type: 'string',
  maxLength: Limits.idLength + Limits.versionLength + 1,
  pattern: `${ID_PATTERN.slice(0, -1)}@${VERSION_PATTERN}$`,
});

/**
 * Artifact digests: artifact ID → SHA-256 of its UTF-8 bytes. One shape serves the checkpoint's receipts and every
 * validator's input set, whose bounds agree (`receipts` = 4 × `artifacts`).
 */
export const artifactDigests = define('artifact-digests', mapOf(ref(id), ref(sha256), Limits.receipts));
if (Limits.receipts !== Limits.artifacts * 4) throw new Error('artifact-digests serves two bounds that differ');

/** The host binding carried in a checkpoint (sorted capability sets); inline, as only the checkpoint holds it. */
export const hostBinding: JsonObject = closedObject({
  harness: ref(harness),
  adapter_id: ref(id),
  adapter_version: ref(version),
  host_capabilities: ref(hostCapabilities),
  validator_capabilities: ref(validatorCapabilities),
});

/**
 * Validator pass receipts: `validator_id@version` → outcome and the digest of its input artifact set (inline, as only
 * the checkpoint holds them).
 */
export const validatorReceipts: JsonObject = mapOf(
  ref(validatorKey),
  closedObject({
    outcome: { enum: ['passed'] },
    input_sha256: ref(sha256),
  }),
);

/*
 * The same leaves as plain, self-contained schemas, for the token bodies the checkpoint codec and the bundle check
 * compile on their own (no `$defs` there).
 */
export const idSchema: JsonObject = id.shape;
export const versionSchema: JsonObject = version.shape;
export const releaseSchema: JsonObject = release.shape;
export const keyIdSchema: JsonObject = keyId.shape;
export const timestampSchema: JsonObject = timestamp.shape;
export const harnessSchema: JsonObject = harness.shape;
export const validatorKeySchema: JsonObject = validatorKey.shape;
export const refSchema: JsonObject = closedObject({ id: idSchema, version: versionSchema });
