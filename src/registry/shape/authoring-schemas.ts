/**
 * JSON Schemas (2020-12) of the authoring files, for editors: registry.yaml, workflow and validator YAML, and the YAML
 * frontmatter of each asset kind. They sit beside the shape readers and take every closed word list and identifier
 * rule from the same constants the readers and the catalogue rules use; what the readers refuse at the shape level
 * (an unknown key, a missing key, a wrong type, an id that is not kebab-case) the schemas refuse too, and the test
 * test/registry/shape/authoring-schemas.test.ts holds the two together. scripts/write-authoring-schemas.mjs writes
 * them to schemas/authoring/, where the package ships them.
 */
import type { JsonObject } from '../../core/index.js';
import { KEBAB_ID_PATTERN, MAX_ID_LENGTH, RELEASE_NAME_PATTERN, VERSION_PATTERN } from '../model/naming.js';
import {
  ArtifactMediaType,
  DeliveryMode,
  Harness,
  HostAssetKind,
  HostCapability,
  ValidatorCapability,
  WritePolicy,
} from '../model/release.js';

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const HOST_ASSET_KINDS = Object.values(HostAssetKind);

/** A kebab-case identifier (entries, steps, artifacts, aliases). */
export const ID_SCHEMA: JsonObject = { type: 'string', maxLength: MAX_ID_LENGTH, pattern: KEBAB_ID_PATTERN };
/** A MAJOR.MINOR.PATCH version. */
export const VERSION_SCHEMA: JsonObject = { type: 'string', maxLength: 32, pattern: VERSION_PATTERN };

/** A non-blank string of at most `max` characters (the readers' `nonEmpty` and `max`). */
function text(description: string, max?: number): JsonObject {
  return {
    description,
    type: 'string',
    minLength: 1,
    pattern: '\\S',
    ...(max === undefined ? {} : { maxLength: max }),
  };
}

function words(values: readonly string[], description: string, opts: { minItems?: number } = {}): JsonObject {
  return { description, type: 'array', ...opts, items: { enum: [...values] } };
}

function closed(properties: Record<string, JsonObject>, required: readonly string[], description?: string): JsonObject {
  return {
    ...(description === undefined ? {} : { description }),
    type: 'object',
    additionalProperties: false,
    ...(required.length === 0 ? {} : { required: [...required] }),
    properties,
  };
}

const REF = closed({ id: { $ref: '#/$defs/id' }, version: { $ref: '#/$defs/version' } }, ['id', 'version']);
const DEFS = { id: ID_SCHEMA, version: VERSION_SCHEMA, ref: REF };
const SCALAR: JsonObject = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] };

/** `id` and `version` in a source file: optional, and equal to the file name when given. */
const IDENTITY = {
  id: { description: 'Optional: the id, which the file name <id>@<version> already gives.', $ref: '#/$defs/id' },
  version: { description: 'Optional: the version, which the file name already gives.', $ref: '#/$defs/version' },
};

function document(title: string, description: string, body: JsonObject, defs: JsonObject = {}): JsonObject {
  return { $schema: DRAFT, title, description, ...body, $defs: { ...DEFS, ...defs } };
}

/** registry.yaml: the release header. */
export const REGISTRY_SCHEMA: JsonObject = document(
  'Rimthan release source: registry.yaml',
  'The header of a release source folder: which registry it belongs to and the release name it compiles to. See docs/authoring.md.',
  closed(
    {
      registry_id: { description: 'The registry, a kebab-case id shared by its releases.', $ref: '#/$defs/id' },
      release: {
        description: 'The release name, e.g. team-2026.12.1; a changed source is a new release name.',
        type: 'string',
        maxLength: 128,
        pattern: RELEASE_NAME_PATTERN,
      },
    },
    ['registry_id', 'release'],
  ),
);

const ARTIFACT = closed(
  {
    artifact_id: { description: 'The artifact id other steps and validators name.', $ref: '#/$defs/id' },
    path: { description: 'Project-relative POSIX path the step writes.', type: 'string' },
    media_type: { enum: Object.values(ArtifactMediaType) },
    schema: { description: 'The JSON Schema an application/json artifact must match.', $ref: '#/$defs/ref' },
    max_bytes: { description: 'Largest accepted size in bytes.', type: 'integer' },
    write_policy: { enum: Object.values(WritePolicy) },
  },
  ['artifact_id', 'path', 'media_type', 'max_bytes', 'write_policy'],
  'One artifact the step writes.',
);

const PREDICATE: JsonObject = {
  ...closed(
    {
      field: { description: 'A confirmed-state field.', type: 'string' },
      equals: SCALAR,
      in: { type: 'array', minItems: 1, items: SCALAR },
    },
    ['field'],
    'Taken when the field equals the value, or is one of the values: exactly one of equals and in.',
  ),
  oneOf: [
    { properties: { equals: true }, required: ['equals'] },
    { properties: { in: true }, required: ['in'] },
  ],
};

const QUESTION = closed(
  {
    field: { description: 'The confirmed-state field the answer fills.', type: 'string' },
    prompt: text('What the person is asked.', 2000),
    options: {
      type: 'array',
      items: closed({ value: SCALAR, label: text('What the person sees.', 200) }, ['value', 'label']),
    },
  },
  ['field', 'prompt'],
  'The question the step asks before branching.',
);

const STEP = closed(
  {
    id: { description: 'The step id (kebab-case); the first step is setup-workspace.', $ref: '#/$defs/id' },
    title: text('The step title.', 200),
    instruction: { description: 'The instruction asset the agent follows.', $ref: '#/$defs/ref' },
    host_assets: {
      description: 'Prompts, skills and subagents the host holds for this step (setup-workspace delivers them all).',
      type: 'array',
      items: closed(
        { kind: { enum: HOST_ASSET_KINDS }, id: { $ref: '#/$defs/id' }, version: { $ref: '#/$defs/version' } },
        ['kind', 'id', 'version'],
      ),
    },
    inputs: {
      description: 'Artifact ids of earlier steps this step reads.',
      type: 'array',
      items: { $ref: '#/$defs/id' },
    },
    outputs: { type: 'array', items: { $ref: '#/$defs/artifact' } },
    validators: {
      description: 'Semantic validators run on the outputs.',
      type: 'array',
      items: { $ref: '#/$defs/ref' },
    },
    next: { description: 'The next step (or branches; neither: the step ends the workflow).', $ref: '#/$defs/id' },
    branches: {
      type: 'array',
      items: closed({ when: { $ref: '#/$defs/predicate' }, to: { $ref: '#/$defs/id' } }, ['when', 'to']),
    },
    question: { $ref: '#/$defs/question' },
  },
  ['id', 'title', 'instruction'],
  'One step of the workflow.',
);

/** workflows/<id>@<version>.yaml. */
export const WORKFLOW_SCHEMA: JsonObject = document(
  'Rimthan workflow',
  'A workflow of a release source: workflows/<id>@<version>.yaml. See docs/authoring.md.',
  closed(
    {
      ...IDENTITY,
      title: text('The workflow title.', 200),
      description: text('What the workflow is for, shown to the agent choosing one.', 4000),
      entry_aliases: { description: 'Other names that start it.', type: 'array', items: { $ref: '#/$defs/id' } },
      confirmed_state_schema: {
        description: 'The JSON Schema of the state the person confirms.',
        $ref: '#/$defs/ref',
      },
      required_host_capabilities: words(Object.values(HostCapability), 'What every host must have to start.'),
      required_validator_capabilities: words(
        Object.values(ValidatorCapability),
        'What validators need on every route.',
      ),
      host_adapters: closed(
        Object.fromEntries(Object.values(Harness).map((h) => [h, { $ref: '#/$defs/ref' }])),
        [],
        'The host adapter pinned for each harness.',
      ),
      start_step: { description: 'The first step (default setup-workspace).', $ref: '#/$defs/id' },
      steps: { type: 'array', items: { $ref: '#/$defs/step' } },
    },
    ['title', 'description', 'confirmed_state_schema', 'steps'],
  ),
  { step: STEP, artifact: ARTIFACT, predicate: PREDICATE, question: QUESTION },
);

/** validators/<id>@<version>.yaml. */
export const VALIDATOR_SCHEMA: JsonObject = document(
  'Rimthan validator',
  'A semantic validator of a release source: validators/<id>@<version>.yaml. See docs/authoring.md.',
  closed(
    {
      ...IDENTITY,
      title: text('The validator title.', 200),
      brief: { description: 'The validator-brief asset: its criteria.', $ref: '#/$defs/ref' },
      input_artifacts: {
        description: 'Artifact ids the validator reads.',
        type: 'array',
        items: { $ref: '#/$defs/id' },
      },
      required_capabilities: words(Object.values(ValidatorCapability), 'What the validator needs, and no more.'),
      required: { description: 'True: the step cannot pass without its report.', type: 'boolean' },
    },
    ['title', 'brief', 'input_artifacts', 'required'],
  ),
);

const ASSET_COMMON = {
  ...IDENTITY,
  title: text('The asset title.', 200),
  description: text('What the asset is for.'),
};

function assetSchema(title: string, where: string, extra: Record<string, JsonObject>, required: string[]): JsonObject {
  return document(
    title,
    `The YAML frontmatter of ${where}; the Markdown after it is the asset content. See docs/authoring.md.`,
    closed({ ...ASSET_COMMON, ...extra }, ['title', 'description', ...required]),
  );
}

/** Frontmatter of instructions, prompts, skills and validator briefs. */
export const ASSET_SCHEMA = assetSchema(
  'Rimthan asset frontmatter',
  'assets/{instruction,prompt,skill,validator-brief}/<id>@<version>.md',
  {},
  [],
);

/** Frontmatter of subagents. */
export const SUBAGENT_SCHEMA = assetSchema(
  'Rimthan subagent frontmatter',
  'assets/subagent/<id>@<version>.md',
  {
    tools: { description: 'The tools the subagent may use.', type: 'array', items: text('A tool name.') },
    read_only: { description: 'True: it never changes anything.', type: 'boolean' },
  },
  [],
);

const CONTRACT = closed(
  {
    required_host_capabilities: words(Object.values(HostCapability), 'What the adapter needs of the host.'),
    delivery: closed(
      Object.fromEntries(
        HOST_ASSET_KINDS.map((k) => [
          k,
          words(Object.values(DeliveryMode), `How a ${k} may be delivered.`, { minItems: 1 }),
        ]),
      ),
      HOST_ASSET_KINDS,
    ),
    project_local_paths: closed(
      Object.fromEntries(
        HOST_ASSET_KINDS.map((k) => [k, { description: 'Path template with {asset_id}.', type: 'string' }]),
      ),
      [],
    ),
  },
  ['required_host_capabilities', 'delivery', 'project_local_paths'],
  'The typed contract: capabilities, delivery modes per asset kind and project-local paths.',
);

/** Frontmatter of host adapters. */
export const HOST_ADAPTER_SCHEMA = assetSchema(
  'Rimthan host adapter frontmatter',
  'assets/host-adapter/<id>@<version>.md',
  {
    compatible_harnesses: words(Object.values(Harness), 'The harnesses this adapter serves.'),
    adapter_contract: CONTRACT,
  },
  ['compatible_harnesses'],
);

/** The schema files of the source formats, by their file name under schemas/authoring/. */
export const SOURCE_SCHEMA_FILES: Readonly<Record<string, JsonObject>> = {
  'registry.schema.json': REGISTRY_SCHEMA,
  'workflow.schema.json': WORKFLOW_SCHEMA,
  'validator.schema.json': VALIDATOR_SCHEMA,
  'asset.schema.json': ASSET_SCHEMA,
  'subagent.schema.json': SUBAGENT_SCHEMA,
  'host-adapter.schema.json': HOST_ADAPTER_SCHEMA,
};
