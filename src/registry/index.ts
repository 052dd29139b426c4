/**
 * registry: the release model, authoring sources → immutable release files, verification, release stores and the
 * active-release channel, and workflow graphs. This file is the whole public surface of `rimthan/registry`.
 */
export * from './model/release.js';
export type { ReleaseContent } from './content.js';
export { ProblemCode, formatProblem, sortProblems } from './problems.js';
export type { Problem } from './problems.js';
export { isKebabId, isVersion, isReleaseName, compareVersions, MAX_ID_LENGTH } from './model/naming.js';
export { projectPathProblem, pathTemplateProblem, RESERVED_ROOTS } from './paths.js';
export { checkSource, buildRelease, buildDevRelease } from './build.js';
export { parseYaml } from './source/yaml-doc.js';
export type { ParsedYaml, LineError } from './source/yaml-doc.js';
export type { Path as SourcePath } from './problems.js';
export type { CheckSourceResult, BuildResult, DevBuildResult } from './build.js';
export { verifyReleaseFile, ReleaseRejection, MAX_RELEASE_BYTES } from './verify.js';
export type { VerifyResult } from './verify.js';
export { assembleReleaseFile, serializeReleaseFile, releaseOf, releaseFileOf } from './manifest.js';
export { RELEASE_FORMAT } from './shape/release-shape.js';
export {
  ASSET_SCHEMA,
  HOST_ADAPTER_SCHEMA,
  ID_SCHEMA,
  REGISTRY_SCHEMA,
  SOURCE_SCHEMA_FILES,
  SUBAGENT_SCHEMA,
  VALIDATOR_SCHEMA,
  VERSION_SCHEMA,
  WORKFLOW_SCHEMA,
} from './shape/authoring-schemas.js';
export {
  validateContent,
  MAX_ARTIFACT_BYTES,
  SETUP_STEP,
  TYPED_CONTRACT_SINCE,
  requiresTypedContract,
} from './validate/index.js';
export { workflowGraph, workflowMermaid, mermaidText, predicateLabel } from './graph.js';
export type { WorkflowGraph, WorkflowGraphEdge, WorkflowGraphNode } from './graph.js';
export * from './store/index.js';
export type {
  FolderStoreOptions,
  PublishResult,
  RefreshResult,
  ActiveName,
  ReleaseLoad,
  ReleaseSource,
} from './store/index.js';
