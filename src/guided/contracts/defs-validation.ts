/**
 * Published shapes for the validation half of the protocol: submitted artifacts, the two attestation types, semantic
 * validator reports and their findings, and the deterministic failure objects prepare_step_validation returns.
 */
import type { JsonObject } from '../../core/index.js';
import { FailureCode, FailureReason } from '../codes.js';
import {
  Limits,
  anyCapability,
  arrayOf,
  artifactDigests,
  assetKind,
  closedObject,
  deliveryMode,
  harness,
  hostCapabilities,
  id,
  mediaType,
  nullable,
  nullableSha256,
  path,
  pinnedRef,
  sha256,
  title,
  uri,
  validatorCapabilities,
  version,
  writePolicy,
} from './primitives.js';
import { described, publish, ref } from './published.js';

/** One artifact body as the harness wrote it; transient (reduced to a SHA-256 receipt, never stored). */
export const artifactDef = publish(
  'artifact',
  'Submitted artifact',
  closedObject({
    artifact_id: ref(id, "A declared output's `artifact_id` from the step payload."),
    media_type: ref(mediaType, "That output's `media_type`."),
    content: {
      type: 'string',
      maxLength: Limits.artifactChars,
      description: 'The exact text of the file as written (JSON must parse and pass its schema).',
    },
    path: ref(path, "That output's declared `path`, where the file was written."),
  }),
);

/** Setup-workspace proof of what the host delivered and how, bound to the checkpoint's host binding. */
export const hostAttestationDef = publish(
  'host-attestation',
  'Setup host attestation',
  closedObject({
    harness: ref(harness, "The checkpoint's `host.harness`."),
    adapter: ref(pinnedRef, "The checkpoint's `host.adapter_id` and `host.adapter_version`."),
    host_capabilities: ref(hostCapabilities, "The checkpoint's `host.host_capabilities`."),
    validator_capabilities: ref(validatorCapabilities, "The checkpoint's `host.validator_capabilities`."),
    assets: {
      ...arrayOf(
        closedObject({
          kind: ref(assetKind, "The asset's `kind` (`host-adapter` for the adapter)."),
          asset_id: ref(id, "The asset's `id` from the step payload."),
          version: ref(version, "The asset's `version`."),
          sha256: ref(sha256, '`sha256` of what was delivered (`project_local.sha256` for a project-local file).'),
          delivery: ref(deliveryMode, 'How it was delivered: one of its `delivery_modes`.'),
          path: {
            ...nullable(ref(path)),
            description: '`project_local.path` when delivered project-local, else null.',
          },
        }),
      ),
      description: 'One entry per `host_assets` item of the setup step, plus one for `host_adapter`.',
    },
  }),
);

/** Non-setup proof that the harness read back each declared output from its declared, symlink-free path. */
export const outputAttestationDef = publish(
  'output-attestation',
  'Step output attestation',
  closedObject({
    step_id: ref(id, 'The current step id.'),
    outputs: {
      ...arrayOf(
        closedObject({
          artifact_id: ref(id, "The output's `artifact_id`."),
          path: ref(path, "The output's declared `path`."),
          owner_step: ref(id, 'The step that declares this output: the current step id.'),
          media_type: ref(mediaType, "The output's `media_type`."),
          schema_sha256: described("The output's `schema.sha256` (null when it has no schema).", nullableSha256),
          max_bytes: {
            type: 'integer',
            minimum: 1,
            maximum: Limits.artifactChars * 4,
            description: "The output's `max_bytes`.",
          },
          content_sha256: ref(sha256, 'SHA-256 of the file bytes read back from disk.'),
          symlink_free: { type: 'boolean', description: 'true once no component of the path is a symlink.' },
          readback_verified: { type: 'boolean', description: 'true once the bytes read back equal `content`.' },
          write_policy: ref(writePolicy, "The output's `write_policy`, checked against what existed before."),
        }),
        Limits.artifacts,
      ),
      description: 'One entry per declared output of the step.',
    },
  }),
);

const findingShape: JsonObject = closedObject(
  {
    severity: { enum: ['error', 'warning', 'info'], description: 'How serious the finding is.' },
    message: {
      type: 'string',
      maxLength: Limits.findingMessageChars,
      description: 'What is wrong and why, in words.',
    },
    artifact_id: ref(id, 'Optional: the artifact it concerns.'),
    location: {
      type: 'string',
      maxLength: Limits.findingLocationChars,
      description: 'Optional: where in it (a JSON pointer, a heading).',
    },
  },
  ['artifact_id', 'location'],
);

/** One semantic validator report from a host-native validator subagent. Findings are echoed, never stored. */
export const validatorReportDef = publish(
  'validator-report',
  'Semantic validator report',
  closedObject({
    validator_id: ref(id, '`validator_id` from the prepare result.'),
    validator_version: ref(version, '`validator_version` from the prepare result.'),
    instruction_sha256: ref(sha256, '`instruction_sha256` from the prepare result.'),
    input_artifacts: ref(artifactDigests, '`input_artifacts` from the prepare result.'),
    validated_by: {
      ...closedObject({
        harness: ref(harness, "The checkpoint's `host.harness`."),
        adapter_version: ref(version, "The checkpoint's `host.adapter_version`."),
      }),
      description: 'The host that ran the validator subagent.',
    },
    outcome: { enum: ['passed', 'failed'], description: "The validator subagent's verdict." },
    findings: { ...arrayOf(findingShape, Limits.findings), description: 'What it found ([] if nothing).' },
  }),
);

/** A finding echoed back to the caller that submitted it, tagged with its validator. */
export const reportedFindingDef = publish(
  'reported-finding',
  'Reported validator finding',
  closedObject(
    {
      validator_id: ref(id),
      validator_version: ref(version),
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
      code: { enum: Object.values(FailureCode) },
      reason: { enum: Object.values(FailureReason) },
      artifact_id: ref(id),
      validator_id: ref(id),
      capability: ref(anyCapability),
      asset: closedObject({ kind: ref(assetKind), id: ref(id), version: ref(version) }),
      path: ref(path),
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
    validator_id: ref(id),
    validator_version: ref(version),
    title: ref(title),
    required: { type: 'boolean' },
    instruction_sha256: ref(sha256),
    input_artifacts: ref(artifactDigests),
    uri: ref(uri),
    brief_uri: ref(uri),
  }),
);
