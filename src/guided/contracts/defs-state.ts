/**
 * Published shapes for what the harness declares: confirmed state, host declaration, repository policy, migration
 * requests; and for what start/continue answer with: blockers, questions, migration previews.
 */
import type { JsonObject } from '../../core/index.js';
import { BlockerCode } from '../codes.js';
import {
  Limits,
  anyCapability,
  arrayOf,
  closedObject,
  harness,
  hostCapabilities,
  id,
  mapOf,
  path,
  pinnedRef,
  release,
  stateField,
  timestamp,
  validatorCapabilities,
  validatorKey,
  version,
} from './primitives.js';
import { define, publish, ref } from './published.js';
import type { NamedShape } from './published.js';

/** A string of confirmed state, wherever it is nested (named once, used at every depth). */
const boundedString = define('state-string', {
  if: { type: 'string' },
  then: { type: 'string', maxLength: Limits.stateStringChars },
});

/**
 * A confirmed-state value: any JSON nested at most `depth` containers deep, every string, array and object bounded.
 * Written as per-type conditions (`$ref` to the string bound, then `if` array / `else if` object) rather than a union
 * of types, so that a client that flattens unions (to the object member) still accepts a string or a number here; the
 * values accepted are exactly those of that union.
 */
function boundedValue(depth: number): NamedShape {
  if (depth === 0) {
    return define('state-value-0', {
      ...ref(boundedString),
      if: { type: 'array' },
      then: false,
      else: { if: { type: 'object' }, then: false },
    });
  }
  const inner = ref(boundedValue(depth - 1));
  return define(`state-value-${depth}`, {
    ...ref(boundedString),
    if: { type: 'array' },
    then: { type: 'array', maxItems: Limits.stateArrayItems, items: inner },
    else: {
      if: { type: 'object' },
      then: {
        type: 'object',
        maxProperties: Limits.stateNestedProperties,
        propertyNames: { maxLength: 128 },
        additionalProperties: inner,
      },
    },
  });
}

const confirmationSchema: JsonObject = closedObject({
  confirmed_by: { enum: ['participant'], description: 'Always "participant".' },
  confirmed_at: ref(timestamp, 'RFC 3339 time of confirmation (renew on change).'),
});

/**
 * The confirmed-state projection: top-level fields and, per field, who confirmed it and when. The engine requires a
 * confirmation for every field and a contemporaneous one (after the previous checkpoint) for every changed field.
 */
export const confirmedStateProjectionDef = publish(
  'confirmed-state-projection',
  'Confirmed-state projection',
  closedObject({
    state: {
      ...mapOf(ref(stateField), ref(boundedValue(3)), Limits.stateFields),
      description: "Field → value the person confirmed; valid against the workflow's confirmed-state schema.",
    },
    confirmations: {
      ...mapOf(ref(stateField), confirmationSchema, Limits.stateFields),
      description: 'Field → its confirmation; one per field of `state`.',
    },
  }),
);

/** What the repository, user or host policy says about the workflow's writes. */
export const repositoryPolicyDef = publish(
  'repository-policy',
  'Repository policy',
  closedObject(
    {
      conflict: {
        type: 'boolean',
        description: "true if any policy forbids the workflow's writes.",
      },
      protected_paths: {
        type: 'array',
        maxItems: Limits.listItems,
        uniqueItems: true,
        items: ref(path),
        description: 'Optional: paths policy protects (a declared write inside one conflicts).',
      },
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
      harness: ref(harness, 'Which harness you are.'),
      adapter: ref(pinnedRef, "The workflow's pinned adapter for your harness; omit to be told."),
      host_capabilities: ref(hostCapabilities, 'Only capabilities this host really has.'),
      validator_capabilities: ref(validatorCapabilities, 'What validator subagents here can really read.'),
      repository_policy: ref(repositoryPolicyDef, "What policy says about the workflow's writes."),
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
      code: { enum: Object.values(BlockerCode) },
      capability: ref(anyCapability),
      expected_adapter: ref(pinnedRef),
      field: ref(stateField),
      path: ref(path),
    },
    ['capability', 'expected_adapter', 'field', 'path'],
  ),
);

/** A value a question offers or a branch predicate compares with. */
export const scalar = define('scalar', {
  anyOf: [{ type: 'string', maxLength: 256 }, { type: 'number' }, { type: 'boolean' }],
});

/** The question fields shared by a step definition and the question a result asks. */
export const questionProperties = {
  field: ref(stateField),
  prompt: { type: 'string', maxLength: Limits.promptLength },
  options: arrayOf(closedObject({ value: ref(scalar), label: { type: 'string', maxLength: 256 } })),
};

/** The one question asked while a branch field is missing from confirmed state. */
export const questionDef = publish('question', 'Workflow question', closedObject(questionProperties));

/** An explicit request to move a checkpoint to a newer workflow version in another release. */
export const migrationRequestDef = publish(
  'migration-request',
  'Migration request',
  closedObject({
    target_release: ref(release, 'The newer active release to move to.'),
    workflow_version: ref(version, 'The newer workflow version in that release.'),
    host: ref(hostDeclarationDef, 'Your host declaration for the target release.'),
    confirm: { type: 'boolean', description: 'false: preview what is invalidated; true: migrate (person agreed).' },
  }),
);

const positionSchema: JsonObject = closedObject({
  registry_release: ref(release),
  workflow: ref(pinnedRef),
  step: ref(id),
});

/** What a migration would do: everything the old checkpoint proved is invalidated; the target restarts at setup. */
export const migrationPreviewDef = publish(
  'migration-preview',
  'Migration preview',
  closedObject({
    source: positionSchema,
    target: positionSchema,
    invalidated_artifacts: arrayOf(ref(id), Limits.receipts),
    invalidated_validators: arrayOf(ref(validatorKey), Limits.receipts),
    confirmed: { type: 'boolean' },
  }),
);
