/**
 * Schema ids the guided protocol publishes its own contracts under, at the same URI template as release schemas
 * (`rimthan://registry/{release}/schemas/{schema_id}/{version}`). A release schema with one of these ids would take
 * that URI from the contract the tools embed, so authoring validation refuses them. guided/contracts checks in its
 * tests that every schema it publishes is listed here.
 */
export const PROTOCOL_SCHEMA_IDS: ReadonlySet<string> = new Set([
  'rimthan.start-workflow.input',
  'rimthan.start-workflow.output',
  'rimthan.continue-workflow.input',
  'rimthan.continue-workflow.output',
  'rimthan.prepare-step-validation.input',
  'rimthan.prepare-step-validation.output',
  'rimthan.submit-step-validation.input',
  'rimthan.submit-step-validation.output',
  'confirmed-state-projection',
  'repository-policy',
  'host-declaration',
  'blocker',
  'question',
  'migration-request',
  'migration-preview',
  'checkpoint-envelope',
  'validation-bundle',
  'step-definition',
  'step-payload',
  'artifact',
  'host-attestation',
  'output-attestation',
  'validator-report',
  'reported-finding',
  'deterministic-failure',
  'prepared-validator',
]);
