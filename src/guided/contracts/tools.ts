/**
 * The four guided tools' closed input and output schemas. Every shared shape is referenced through `$defs`, which hold
 * the very objects published in GUIDED_SCHEMA_RESOURCES, so a tool contract and a served schema can never drift.
 */
import type { JsonObject, JsonValue } from '../../core/index.js';
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
import {
  Limits,
  SCHEMA_DIALECT,
  arrayOf,
  closedObject,
  idSchema,
  validatorCapabilitiesSchema,
  versionSchema,
} from './primitives.js';
import { CONTRACT_VERSION, type PublishedSchema, nullableRef, ref } from './published.js';

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

const defsById = new Map(SHARED_DEFS.map((d) => [d.id, d]));

function collectRefs(value: JsonValue, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (value !== null && typeof value === 'object') {
    const target = value['$ref'];
    if (typeof target === 'string' && target.startsWith('#/$defs/')) into.add(target.slice('#/$defs/'.length));
    for (const child of Object.values(value)) collectRefs(child, into);
  }
}

/** A closed tool schema whose `$defs` hold exactly the published shapes its properties reference. */
function toolSchema(
  id: string,
  title: string,
  properties: Record<string, JsonObject>,
  optional: readonly string[] = [],
): PublishedSchema {
  const used = new Set<string>();
  collectRefs(properties, used);
  const $defs: JsonObject = {};
  for (const name of [...used].sort()) {
    const def = defsById.get(name);
    if (def === undefined) throw new Error(`tool schema ${id} references an unpublished shape`);
    $defs[name] = def.schema;
  }
  const schema: JsonObject = { $schema: SCHEMA_DIALECT, title, ...closedObject(properties, optional), $defs };
  return { id, version: CONTRACT_VERSION, schema, shape: schema };
}

const status = (values: readonly string[]): JsonObject => ({ type: 'string', enum: [...values] });

export const startInput = toolSchema(
  'rimthan.start-workflow.input',
  'rimthan.start_workflow arguments',
  {
    workflow: { type: 'string', maxLength: Limits.idLength, pattern: '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$' },
    workflow_version: versionSchema,
    confirmed_state: ref(confirmedStateProjectionDef),
    host: ref(hostDeclarationDef),
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
    checkpoint: ref(checkpointEnvelopeDef),
    confirmed_state: ref(confirmedStateProjectionDef),
    next_confirmed_state: ref(confirmedStateProjectionDef),
    migration: ref(migrationRequestDef),
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
    checkpoint: ref(checkpointEnvelopeDef),
    confirmed_state: ref(confirmedStateProjectionDef),
    artifacts: arrayOf(ref(artifactDef), Limits.artifactsListed),
    repository_policy: ref(repositoryPolicyDef),
    validator_capabilities: validatorCapabilitiesSchema,
    host_attestation: ref(hostAttestationDef),
    output_attestation: ref(outputAttestationDef),
  },
  ['host_attestation', 'output_attestation'],
);

export const prepareOutput = toolSchema(
  'rimthan.prepare-step-validation.output',
  'rimthan.prepare_step_validation result',
  {
    status: status(Object.values(PrepareStatus)),
    step_id: idSchema,
    failures: arrayOf(ref(deterministicFailureDef), Limits.failures),
    validation_bundle: nullableRef(validationBundleDef),
    validators: arrayOf(ref(preparedValidatorDef), Limits.reports),
  },
);

export const submitInput = toolSchema(
  'rimthan.submit-step-validation.input',
  'rimthan.submit_step_validation arguments',
  {
    checkpoint: ref(checkpointEnvelopeDef),
    confirmed_state: ref(confirmedStateProjectionDef),
    validation_bundle: ref(validationBundleDef),
    reports: arrayOf(ref(validatorReportDef), Limits.reports),
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
      closedObject({ validator_id: idSchema, validator_version: versionSchema }),
      Limits.reports,
    ),
  },
);
