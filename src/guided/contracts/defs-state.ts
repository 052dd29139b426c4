/**
 * Published shapes for what the harness declares: confirmed state, host declaration, repository policy, migration
 * requests; and for what start/continue answer with: blockers, questions, migration previews.
 */
import type { JsonObject } from '../../core/index.js';
import { BlockerCode } from '../codes.js';
import {
  Limits,
  arrayOf,
  closedObject,
  harnessSchema,
  hostCapabilitiesSchema,
  hostCapabilitySchema,
  idSchema,
  mapOf,
  pathSchema,
  refSchema,
  releaseSchema,
  stateFieldSchema,
  timestampSchema,
  validatorCapabilitiesSchema,
  validatorCapabilitySchema,
  validatorKeySchema,
  versionSchema,
} from './primitives.js';
import { publish } from './published.js';

/** A confirmed-state value: JSON nested at most four levels, every string, array and object bounded. */
function boundedValue(depth: number): JsonObject {
  const scalars: JsonObject[] = [
    { type: 'null' },
    { type: 'boolean' },
    { type: 'number' },
    { type: 'string', maxLength: Limits.stateStringChars },
  ];
  if (depth === 0) return { anyOf: scalars };
  const inner = boundedValue(depth - 1);
  return {
    anyOf: [
      ...scalars,
      { type: 'array', maxItems: Limits.stateArrayItems, items: inner },
      {
        type: 'object',
        maxProperties: Limits.stateNestedProperties,
        propertyNames: { maxLength: 128 },
        additionalProperties: inner,
      },
    ],
  };
}

const confirmationSchema: JsonObject = closedObject({
  confirmed_by: { type: 'string', enum: ['participant'] },
  confirmed_at: timestampSchema,
});

/**
 * The confirmed-state projection: top-level fields and, per field, who confirmed it and when. The engine requires a
 * confirmation for every field and a contemporaneous one (after the previous checkpoint) for every changed field.
 */
export const confirmedStateProjectionDef = publish(
  'confirmed-state-projection',
  'Confirmed-state projection',
  closedObject({
    state: mapOf(stateFieldSchema, boundedValue(3), Limits.stateFields),
    confirmations: mapOf(stateFieldSchema, confirmationSchema, Limits.stateFields),
  }),
);

/** What the repository, user or host policy says about the workflow's writes. */
export const repositoryPolicyDef = publish(
  'repository-policy',
  'Repository policy',
  closedObject(
    {
      conflict: { type: 'boolean' },
      protected_paths: { type: 'array', maxItems: Limits.listItems, uniqueItems: true, items: pathSchema },
    },
    ['protected_paths'],
  ),
);

/** The harness's declaration of itself, bound into the checkpoint at start. */
export const hostDeclarationDef = publish(
  'host-declaration',
  'Host declaration',
  closedObject(
    {
      harness: harnessSchema,
      adapter: refSchema,
      host_capabilities: hostCapabilitiesSchema,
      validator_capabilities: validatorCapabilitiesSchema,
      repository_policy: repositoryPolicyDef.shape,
    },
    ['adapter'],
  ),
);

/** Why a start or continue call is blocked (closed fields, never participant data). */
export const blockerDef = publish(
  'blocker',
  'Workflow blocker',
  closedObject(
    {
      code: { type: 'string', enum: Object.values(BlockerCode) },
      capability: { anyOf: [hostCapabilitySchema, validatorCapabilitySchema] },
      expected_adapter: refSchema,
      field: stateFieldSchema,
      path: pathSchema,
    },
    ['capability', 'expected_adapter', 'field', 'path'],
  ),
);

const optionValueSchema: JsonObject = {
  anyOf: [{ type: 'string', maxLength: 256 }, { type: 'number' }, { type: 'boolean' }],
};

/** The one question asked while a branch field is missing from confirmed state. */
export const questionDef = publish(
  'question',
  'Workflow question',
  closedObject({
    field: stateFieldSchema,
    prompt: { type: 'string', maxLength: Limits.promptLength },
    options: arrayOf(closedObject({ value: optionValueSchema, label: { type: 'string', maxLength: 256 } })),
  }),
);

/** An explicit request to move a checkpoint to a newer workflow version in another release. */
export const migrationRequestDef = publish(
  'migration-request',
  'Migration request',
  closedObject({
    target_release: releaseSchema,
    workflow_version: versionSchema,
    host: hostDeclarationDef.shape,
    confirm: { type: 'boolean' },
  }),
);

const positionSchema: JsonObject = closedObject({
  registry_release: releaseSchema,
  workflow: refSchema,
  step: idSchema,
});

/** What a migration would do: everything the old checkpoint proved is invalidated; the target restarts at setup. */
export const migrationPreviewDef = publish(
  'migration-preview',
  'Migration preview',
  closedObject({
    source: positionSchema,
    target: positionSchema,
    invalidated_artifacts: arrayOf(idSchema, Limits.receipts),
    invalidated_validators: arrayOf(validatorKeySchema, Limits.receipts),
    confirmed: { type: 'boolean' },
  }),
);
