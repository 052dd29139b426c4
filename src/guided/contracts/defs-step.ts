/**
 * Published shapes for the active step the harness receives: the exact step definition plus every asset, adapter,
 * validator and resource reference it needs to act without further look-ups.
 */
import type { JsonObject } from '../../core/index.js';
import {
  Limits,
  arrayOf,
  assetContent,
  assetKind,
  closedObject,
  deliveryMode,
  harness,
  hostAssetKind,
  hostCapabilities,
  id,
  mediaType,
  nullable,
  path,
  pinnedRef,
  sha256,
  stateField,
  title,
  uri,
  validatorCapabilities,
  version,
  writePolicy,
} from './primitives.js';
import { questionProperties, scalar } from './defs-state.js';
import { define, publish, ref } from './published.js';

const maxBytes: JsonObject = { type: 'integer', minimum: 1 };

const artifactDeclarationSchema: JsonObject = closedObject(
  {
    artifact_id: ref(id),
    path: ref(path),
    media_type: ref(mediaType),
    schema: ref(pinnedRef),
    max_bytes: maxBytes,
    write_policy: ref(writePolicy),
  },
  ['schema'],
);

const predicateSchema: JsonObject = {
  anyOf: [
    closedObject({ field: ref(stateField), equals: ref(scalar) }),
    closedObject({ field: ref(stateField), in: arrayOf(ref(scalar)) }),
  ],
};

/** The exact step definition from the release (as served at .../steps/{step_id}). */
export const stepDefinitionDef = publish(
  'step-definition',
  'Workflow step definition',
  closedObject(
    {
      id: ref(id),
      title: ref(title),
      instruction: ref(pinnedRef),
      host_assets: arrayOf(closedObject({ kind: ref(hostAssetKind), id: ref(id), version: ref(version) })),
      inputs: arrayOf(ref(id)),
      outputs: arrayOf(artifactDeclarationSchema, Limits.artifacts),
      validators: arrayOf(ref(pinnedRef)),
      next: ref(id),
      branches: arrayOf(closedObject({ when: predicateSchema, to: ref(id) })),
      question: closedObject(questionProperties, ['options']),
    },
    ['next', 'branches', 'question'],
  ),
);

/** A registry asset as a step payload carries it: identity, digest, URI and content. */
const assetPayload = define(
  'asset-payload',
  closedObject({
    kind: ref(assetKind),
    id: ref(id),
    version: ref(version),
    title: ref(title),
    sha256: ref(sha256),
    uri: ref(uri),
    content: ref(assetContent),
  }),
);

const modeList = define('delivery-modes', {
  type: 'array',
  maxItems: 2,
  uniqueItems: true,
  items: ref(deliveryMode),
});

/**
 * `content` of a host asset or the host adapter: sent at setup; omitted on every later step, where the entry is a
 * reference to what setup attested (read `uri`, check `sha256`).
 */
const REFERENCED = ['content'];

const hostAssetPayloadSchema: JsonObject = closedObject(
  {
    kind: ref(hostAssetKind),
    id: ref(id),
    version: ref(version),
    title: ref(title),
    description: { type: 'string', maxLength: Limits.descriptionLength },
    sha256: ref(sha256),
    uri: ref(uri),
    content: ref(assetContent, 'Setup only; later a reference: read `uri`.'),
    delivery_modes: ref(modeList),
    project_local: nullable(
      closedObject({ path: ref(path), content: ref(assetContent, 'Setup only.'), sha256: ref(sha256) }, REFERENCED),
    ),
  },
  REFERENCED,
);

const adapterPayloadSchema: JsonObject = closedObject(
  {
    id: ref(id),
    version: ref(version),
    title: ref(title),
    sha256: ref(sha256),
    uri: ref(uri),
    content: ref(assetContent, 'Setup only; later a reference: read `uri`.'),
    compatible_harnesses: { type: 'array', maxItems: 8, uniqueItems: true, items: ref(harness) },
    contract: closedObject({
      required_host_capabilities: ref(hostCapabilities),
      delivery: closedObject({ prompt: ref(modeList), skill: ref(modeList), subagent: ref(modeList) }),
      project_local_paths: closedObject({ prompt: ref(path), skill: ref(path), subagent: ref(path) }, [
        'prompt',
        'skill',
        'subagent',
      ]),
    }),
  },
  REFERENCED,
);

const validatorPayloadSchema: JsonObject = closedObject({
  validator_id: ref(id),
  validator_version: ref(version),
  title: ref(title),
  required: { type: 'boolean' },
  required_capabilities: ref(validatorCapabilities),
  input_artifacts: arrayOf(ref(id)),
  instruction_sha256: ref(sha256),
  uri: ref(uri),
  brief: ref(assetPayload),
});

const outputPayloadSchema: JsonObject = closedObject({
  artifact_id: ref(id),
  path: ref(path),
  media_type: ref(mediaType),
  max_bytes: maxBytes,
  write_policy: ref(writePolicy),
  schema: nullable(closedObject({ id: ref(id), version: ref(version), sha256: ref(sha256), uri: ref(uri) })),
});

/** Everything the harness needs for the active step. */
export const stepPayloadDef = publish(
  'step-payload',
  'Active workflow step',
  closedObject({
    workflow: closedObject({ id: ref(id), version: ref(version), title: ref(title) }),
    step: ref(stepDefinitionDef),
    instruction: ref(assetPayload),
    host_assets: arrayOf(hostAssetPayloadSchema),
    host_adapter: adapterPayloadSchema,
    validators: arrayOf(validatorPayloadSchema),
    outputs: arrayOf(outputPayloadSchema, Limits.artifacts),
    resources: { type: 'array', maxItems: 256, uniqueItems: true, items: ref(uri) },
  }),
);
