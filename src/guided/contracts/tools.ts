/**
 * The four guided tools' closed input and output schemas. Every shape they share is a `$ref` into the document's own
 * `$defs`, which hold the very objects declared in `defs-*.ts` and `primitives.ts` (see published.ts), so a tool
 * contract and a served schema can never drift. Every input property says, in one line, what a harness sends.
 */
import type { JsonObject } from '../../core/index.js';
import { PrepareStatus, ProgressStatus, SubmitStatus } from '../codes.js';
import { checkpointEnvelopeDef, validationBundleDef } from './defs-checkpoint.js';
import {
  blockerDef,
  confirmedStateProjectionDef,
  hostDeclarationDef,
  migrationPreviewDef,
  migrationRequestDef,
  questionDef,
  repositoryPolicyDef,
} from './defs-state.js';
import { stepDefinitionDef, stepPayloadDef } from './defs-step.js';
import {
  artifactDef,
  deterministicFailureDef,
  hostAttestationDef,
  outputAttestationDef,
  preparedValidatorDef,
  reportedFindingDef,
  validatorReportDef,
} from './defs-validation.js';
import { Limits, arrayOf, closedObject, id, validatorCapabilities, version } from './primitives.js';
import { CONTRACT_VERSION, document, nullableRef, ref, type PublishedSchema } from './published.js';

/** Every shared shape, in publication order. */
export const SHARED_DEFS: readonly PublishedSchema[] = [
  confirmedStateProjectionDef,
  repositoryPolicyDef,
  hostDeclarationDef,
  blockerDef,
  questionDef,
  migrationRequestDef,
  migrationPreviewDef,
  checkpointEnvelopeDef,
  validationBundleDef,
  stepDefinitionDef,
  stepPayloadDef,
  artifactDef,
  hostAttestationDef,
  outputAttestationDef,
  validatorReportDef,
  reportedFindingDef,
  deterministicFailureDef,
  preparedValidatorDef,
];

/** A closed tool schema whose `$defs` hold exactly the named shapes its properties reach. */
function toolSchema(
  id: string,
  title: string,
  properties: Record<string, JsonObject>,
  optional: readonly string[] = [],
): PublishedSchema {
  const schema = document(title, closedObject(properties, optional));
  return { id, version: CONTRACT_VERSION, schema, shape: schema };
}

/** A status word (the enum alone says it is a string). */
const status = (values: readonly string[]): JsonObject => ({ enum: [...values] });

/**
 * Shapes a harness only copies back as it received them (the signed checkpoint and validation bundle, and what only
 * they hold): the argument holding one says "unchanged", so their own fields carry no description.
 */
export const COPIED_UNCHANGED: readonly string[] = [checkpointEnvelopeDef.id, validationBundleDef.id];

const CHECKPOINT = 'The `checkpoint` object of the latest result, unchanged.';
const STATE = 'The confirmed state that checkpoint was issued with, unchanged.';

export const startInput = toolSchema(
  'rimthan.start-workflow.input',
  'rimthan.start_workflow arguments',
  {
    workflow: ref(id, 'Workflow id or alias, e.g. "research".'),
    workflow_version: ref(version, 'Optional exact workflow version; omit for the newest.'),
    confirmed_state: ref(confirmedStateProjectionDef, 'What the person confirmed so far (at least `objective`).'),
    host: ref(hostDeclarationDef, 'This host, honestly: harness, pinned adapter, real capabilities, policy.'),
  },
  ['workflow_version'],
);

export const startOutput = toolSchema('rimthan.start-workflow.output', 'rimthan.start_workflow result', {
  status: status([ProgressStatus.Active, ProgressStatus.Blocked]),
  checkpoint: nullableRef(checkpointEnvelopeDef),
  step: nullableRef(stepPayloadDef),
  blockers: arrayOf(ref(blockerDef), Limits.blockers),
});

export const continueInput = toolSchema(
  'rimthan.continue-workflow.input',
  'rimthan.continue_workflow arguments',
  {
    checkpoint: ref(checkpointEnvelopeDef, CHECKPOINT),
    confirmed_state: ref(confirmedStateProjectionDef, STATE),
    next_confirmed_state: ref(
      confirmedStateProjectionDef,
      'Optional: the whole new confirmed state after the person confirmed a change (changed fields: fresh `confirmed_at`).',
    ),
    migration: ref(migrationRequestDef, 'Optional: move this checkpoint to a newer release (only when asked to).'),
  },
  ['next_confirmed_state', 'migration'],
);

export const continueOutput = toolSchema('rimthan.continue-workflow.output', 'rimthan.continue_workflow result', {
  status: status(Object.values(ProgressStatus)),
  checkpoint: ref(checkpointEnvelopeDef),
  step: nullableRef(stepPayloadDef),
  question: nullableRef(questionDef),
  blockers: arrayOf(ref(blockerDef), Limits.blockers),
  migration: nullableRef(migrationPreviewDef),
});

export const prepareInput = toolSchema(
  'rimthan.prepare-step-validation.input',
  'rimthan.prepare_step_validation arguments',
  {
    checkpoint: ref(checkpointEnvelopeDef, CHECKPOINT),
    confirmed_state: ref(confirmedStateProjectionDef, STATE),
    artifacts: {
      ...arrayOf(ref(artifactDef), Limits.artifactsListed),
      description: "One entry per declared output of the step (the step payload's `outputs`), with the file's text.",
    },
    repository_policy: ref(repositoryPolicyDef, 'Required: what policy says now about the writes.'),
    validator_capabilities: ref(
      validatorCapabilities,
      "Required: the checkpoint's `host.validator_capabilities`, unchanged.",
    ),
    host_attestation: ref(hostAttestationDef, 'setup-workspace only: what was delivered and how.'),
    output_attestation: ref(outputAttestationDef, 'Every other step: the read-back proof for each output.'),
  },
  ['host_attestation', 'output_attestation'],
);

export const prepareOutput = toolSchema(
  'rimthan.prepare-step-validation.output',
  'rimthan.prepare_step_validation result',
  {
    status: status(Object.values(PrepareStatus)),
    step_id: ref(id),
    failures: arrayOf(ref(deterministicFailureDef), Limits.failures),
    validation_bundle: nullableRef(validationBundleDef),
    validators: arrayOf(ref(preparedValidatorDef), Limits.reports),
  },
);

export const submitInput = toolSchema(
  'rimthan.submit-step-validation.input',
  'rimthan.submit_step_validation arguments',
  {
    checkpoint: ref(checkpointEnvelopeDef, CHECKPOINT),
    confirmed_state: ref(confirmedStateProjectionDef, STATE),
    validation_bundle: ref(validationBundleDef, 'The `validation_bundle` of the prepare result, unchanged.'),
    reports: {
      ...arrayOf(ref(validatorReportDef), Limits.reports),
      description: 'Exactly one report per validator the prepare result listed ([] when it listed none).',
    },
  },
);

export const submitOutput = toolSchema(
  'rimthan.submit-step-validation.output',
  'rimthan.submit_step_validation result',
  {
    status: status(Object.values(SubmitStatus)),
    checkpoint: ref(checkpointEnvelopeDef),
    step: nullableRef(stepPayloadDef),
    question: nullableRef(questionDef),
    findings: arrayOf(ref(reportedFindingDef), Limits.reports * Limits.findings),
    failed_validators: arrayOf(
      closedObject({ validator_id: ref(id), validator_version: ref(version) }),
      Limits.reports,
    ),
  },
);
