/**
 * routes: route scenarios beside a source folder (docs/authoring/scenarios.md) walked through the real guided engine
 * in-process, with the participant library doing what a harness does, and per-workflow route coverage. The room
 * behind `rimthan registry test`.
 */
export { testSource } from './run.js';
export type { RouteTestOptions, RouteTestOutcome, RouteTestReport, ScenarioRun } from './run.js';
export type { CoverageCount, WorkflowCoverage } from './coverage.js';
export { formatScenarioProblem } from './scenario.js';
export type { ScenarioProblem } from './scenario.js';
export { loadScenarios, SCENARIOS_FOLDER } from './load-scenarios.js';
export { SCENARIO_SCHEMA_PATH } from './scenario-schema.js';
export { inProcessServer } from './in-process-server.js';
export { formatRouteReport } from './format.js';
export { AUTHORING_SCHEMA_DIR, AUTHORING_SCHEMAS, authoringSchemaTexts } from './authoring-schemas.js';
export { SCENARIO_SCHEMA } from './scenario-json-schema.js';
