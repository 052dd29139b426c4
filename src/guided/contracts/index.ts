/**
 * The guided tool contracts (name, description, closed input/output schemas, annotations) and every schema they use,
 * published for rimthan://registry/{release}/schemas/{id}/{version}.
 */
import type { JsonObject } from '../../core/index.js';
import { hostView } from './host-view.js';
import type { HostViewOptions } from './host-view.js';
import type { PublishedSchema } from './published.js';
import { CONTRACT_1_0_0_TEXTS } from './published-1.0.0.js';
import {
  SHARED_DEFS,
  continueInput,
  continueOutput,
  prepareInput,
  prepareOutput,
  startInput,
  startOutput,
  submitInput,
  submitOutput,
} from './tools.js';

export const GuidedToolName = {
  StartWorkflow: 'rimthan.start_workflow',
  ContinueWorkflow: 'rimthan.continue_workflow',
  PrepareStepValidation: 'rimthan.prepare_step_validation',
  SubmitStepValidation: 'rimthan.submit_step_validation',
} as const;
export type GuidedToolName = (typeof GuidedToolName)[keyof typeof GuidedToolName];

export interface GuidedToolContract {
  readonly name: GuidedToolName;
  readonly title: string;
  readonly description: string;
  /** The full input contract: every call is validated against it. */
  readonly inputSchema: JsonObject;
  /** What tools/list shows a host's model: the host view of `inputSchema` (host-view.ts). */
  readonly listedInputSchema: JsonObject;
  readonly outputSchema: JsonObject;
  readonly annotations: {
    readonly readOnlyHint: true;
    readonly destructiveHint: false;
    readonly idempotentHint: boolean;
    readonly openWorldHint: false;
  };
}

/** What every call after the start copies back exactly as an earlier result or call had it. */
const ECHOED: readonly string[] = ['checkpoint', 'confirmed_state', 'validation_bundle'];

/**
 * What the listed input schemas leave to the server (see host-view.ts): the echoed arguments' inner shapes, and
 * descriptions below three properties deep (two for prepare's attestations). Every listed schema so stays well within
 * Codex's 5,000-byte budget, which test/guided/contracts/host-view.test.ts checks.
 */
const view = (copied: readonly string[], describedDepth: number): HostViewOptions => ({ copied, describedDepth });

function contract(
  name: GuidedToolName,
  title: string,
  description: string,
  input: PublishedSchema,
  output: PublishedSchema,
  idempotentHint: boolean,
  listed: HostViewOptions,
): GuidedToolContract {
  return {
    name,
    title,
    description,
    inputSchema: input.schema,
    listedInputSchema: hostView(input.schema, listed),
    outputSchema: output.schema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint, openWorldHint: false },
  };
}

/** Exactly the four guided tools, in protocol order. */
export const GUIDED_TOOL_CONTRACTS: readonly GuidedToolContract[] = Object.freeze([
  contract(
    GuidedToolName.StartWorkflow,
    'Start a Rimthan workflow',
    'Select a workflow by ID or alias, validate the initial confirmed state and the host declaration, and return the ' +
      'mandatory setup-workspace step with a signed checkpoint (or the blockers that prevent starting).',
    startInput,
    startOutput,
    false,
    view([], 3),
  ),
  contract(
    GuidedToolName.ContinueWorkflow,
    'Continue a Rimthan workflow',
    'Verify a checkpoint, compare the prior and next confirmed state, and return one question or one active step, ' +
      'complete an ungated step, or perform an explicit, confirmed release migration.',
    continueInput,
    continueOutput,
    false,
    view(ECHOED, 3),
  ),
  contract(
    GuidedToolName.PrepareStepValidation,
    'Prepare step validation',
    'Deterministically validate the exact declared artifacts of the current step (paths, sizes, media types, JSON ' +
      'Schemas, attestations, repository policy, capabilities) and return a signed validation bundle plus the ' +
      'semantic validators that must report. No semantic judgment.',
    prepareInput,
    prepareOutput,
    true,
    view(ECHOED, 2),
  ),
  contract(
    GuidedToolName.SubmitStepValidation,
    'Submit step validation',
    'Verify the complete set of semantic validator reports against the signed validation bundle, then return the ' +
      'failure on the same step or the next step with a new checkpoint. Reports are not stored.',
    submitInput,
    submitOutput,
    false,
    view(ECHOED, 3),
  ),
]);

/** A versioned schema document served at rimthan://registry/{release}/schemas/{id}/{version}. */
export interface GuidedSchemaResource {
  readonly id: string;
  readonly version: string;
  readonly schema: JsonObject;
}

/** Every tool input/output schema and every shared shape, as versioned documents (the same objects the tools embed). */
export const GUIDED_SCHEMA_RESOURCES: readonly GuidedSchemaResource[] = Object.freeze(
  [
    startInput,
    startOutput,
    continueInput,
    continueOutput,
    prepareInput,
    prepareOutput,
    submitInput,
    submitOutput,
    ...SHARED_DEFS,
  ].map((p) => ({ id: p.id, version: p.version, schema: p.schema })),
);

/** An earlier contract version's document, parsed from its frozen text on first use. */
function frozenResource(id: string, version: string, text: string): GuidedSchemaResource {
  let schema: JsonObject | undefined;
  return {
    id,
    version,
    get schema() {
      schema ??= JSON.parse(text) as JsonObject;
      return schema;
    },
  };
}

/**
 * Every versioned document served at rimthan://registry/{release}/schemas/{id}/{version}: each earlier contract
 * version's, byte for byte as it was published, then the current version's (GUIDED_SCHEMA_RESOURCES).
 */
export const PUBLISHED_SCHEMA_RESOURCES: readonly GuidedSchemaResource[] = Object.freeze([
  ...Object.entries(CONTRACT_1_0_0_TEXTS).map(([id, text]) => frozenResource(id, '1.0.0', text)),
  ...GUIDED_SCHEMA_RESOURCES,
]);

export { CONTRACT_VERSION } from './published.js';
