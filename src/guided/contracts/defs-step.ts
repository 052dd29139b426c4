/**
 * Published shapes for the active step the harness receives: the exact step definition plus every asset, adapter,
 * validator and resource reference it needs to act without further look-ups.
 */
import type { JsonObject } from '../../core/index.js';
import {
  Limits,
  arrayOf,
  assetContentSchema,
  assetKindSchema,
  closedObject,
  deliveryModeSchema,
  descriptionSchema,
  harnessSchema,
  hostAssetKindSchema,
  hostCapabilitiesSchema,
  idSchema,
  mediaTypeSchema,
  nullable,
  pathSchema,
  refSchema,
  sha256Schema,
  stateFieldSchema,
  titleSchema,
  uriSchema,
  validatorCapabilitiesSchema,
  versionSchema,
  writePolicySchema,
} from './primitives.js';
import { publish } from './published.js';

const scalarSchema: JsonObject = {
  anyOf: [{ type: 'string', maxLength: 256 }, { type: 'number' }, { type: 'boolean' }],
};

const artifactDeclarationSchema: JsonObject = closedObject(
  {
    artifact_id: idSchema,
    path: pathSchema,
    media_type: mediaTypeSchema,
    schema: refSchema,
    max_bytes: { type: 'integer', minimum: 1 },
    write_policy: writePolicySchema,
  },
  ['schema'],
);

const predicateSchema: JsonObject = {
  anyOf: [
    closedObject({ field: stateFieldSchema, equals: scalarSchema }),
    closedObject({ field: stateFieldSchema, in: arrayOf(scalarSchema) }),
  ],
};

/** The exact step definition from the release (as served at .../steps/{step_id}). */
export const stepDefinitionDef = publish(
  'step-definition',
  'Workflow step definition',
  closedObject(
    {
      id: idSchema,
      title: titleSchema,
      instruction: refSchema,
      host_assets: arrayOf(closedObject({ kind: hostAssetKindSchema, id: idSchema, version: versionSchema })),
      inputs: arrayOf(idSchema),
      outputs: arrayOf(artifactDeclarationSchema, Limits.artifacts),
      validators: arrayOf(refSchema),
      next: idSchema,
      branches: arrayOf(closedObject({ when: predicateSchema, to: idSchema })),
      question: closedObject(
        {
          field: stateFieldSchema,
          prompt: { type: 'string', maxLength: Limits.promptLength },
          options: arrayOf(closedObject({ value: scalarSchema, label: { type: 'string', maxLength: 256 } })),
        },
        ['options'],
      ),
    },
    ['next', 'branches', 'question'],
  ),
);

const assetPayloadSchema: JsonObject = closedObject({
  kind: assetKindSchema,
  id: idSchema,
  version: versionSchema,
  title: titleSchema,
  sha256: sha256Schema,
  uri: uriSchema,
  content: assetContentSchema,
});

const modeListSchema: JsonObject = { type: 'array', maxItems: 2, uniqueItems: true, items: deliveryModeSchema };

const hostAssetPayloadSchema: JsonObject = closedObject({
  kind: hostAssetKindSchema,
  id: idSchema,
  version: versionSchema,
  title: titleSchema,
  description: descriptionSchema,
  sha256: sha256Schema,
  uri: uriSchema,
  content: assetContentSchema,
  delivery_modes: modeListSchema,
  project_local: nullable(closedObject({ path: pathSchema, content: assetContentSchema, sha256: sha256Schema })),
});

const adapterPayloadSchema: JsonObject = closedObject({
  id: idSchema,
  version: versionSchema,
  title: titleSchema,
  sha256: sha256Schema,
  uri: uriSchema,
  content: assetContentSchema,
  compatible_harnesses: { type: 'array', maxItems: 8, uniqueItems: true, items: harnessSchema },
  contract: closedObject({
    required_host_capabilities: hostCapabilitiesSchema,
    delivery: closedObject({ prompt: modeListSchema, skill: modeListSchema, subagent: modeListSchema }),
    project_local_paths: closedObject({ prompt: pathSchema, skill: pathSchema, subagent: pathSchema }, [
      'prompt',
      'skill',
      'subagent',
    ]),
  }),
});

const validatorPayloadSchema: JsonObject = closedObject({
  validator_id: idSchema,
  validator_version: versionSchema,
  title: titleSchema,
  required: { type: 'boolean' },
  required_capabilities: validatorCapabilitiesSchema,
  input_artifacts: arrayOf(idSchema),
  instruction_sha256: sha256Schema,
  uri: uriSchema,
  brief: assetPayloadSchema,
});

const outputPayloadSchema: JsonObject = closedObject({
  artifact_id: idSchema,
  path: pathSchema,
  media_type: mediaTypeSchema,
  max_bytes: { type: 'integer', minimum: 1 },
  write_policy: writePolicySchema,
  schema: nullable(closedObject({ id: idSchema, version: versionSchema, sha256: sha256Schema, uri: uriSchema })),
});

/** Everything the harness needs for the active step. */
export const stepPayloadDef = publish(
  'step-payload',
  'Active workflow step',
  closedObject({
    workflow: closedObject({ id: idSchema, version: versionSchema, title: titleSchema }),
    step: stepDefinitionDef.shape,
    instruction: assetPayloadSchema,
    host_assets: arrayOf(hostAssetPayloadSchema),
    host_adapter: adapterPayloadSchema,
    validators: arrayOf(validatorPayloadSchema),
    outputs: arrayOf(outputPayloadSchema, Limits.artifacts),
    resources: { type: 'array', maxItems: 256, uniqueItems: true, items: uriSchema },
  }),
);
