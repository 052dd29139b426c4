/**
 * guided: the four-tool guided workflow engine (pure), its tool contracts and published schemas, release scopes and
 * the checkpoint routing helper the MCP layer needs.
 */
export { createGuidedEngine } from './engine/engine.js';
export type { GuidedEngine } from './engine/engine.js';
export type { GuidedEngineDeps } from './engine/deps.js';
export { DEFAULT_CHECKPOINT_MAX_AGE_MS } from './engine/deps.js';
export { createReleaseScope, refKey } from './scope.js';
export type { ReleaseScope, WorkflowIndex } from './scope.js';
export { checkpointRelease } from './checkpoint/route.js';
export { CatalogueCache, ResourceCatalogue } from './catalogue.js';
export type { CatalogueEntry, SchemaResource } from './catalogue.js';
export { resourceUri } from './uris.js';
export { checkpointEnvelopeDrift, SOME_MEMBER } from './checkpoint/inspect.js';
export {
  GUIDED_TOOL_CONTRACTS,
  GUIDED_SCHEMA_RESOURCES,
  PUBLISHED_SCHEMA_RESOURCES,
  GuidedToolName,
  CONTRACT_VERSION,
} from './contracts/index.js';
export type { GuidedToolContract, GuidedSchemaResource } from './contracts/index.js';
export {
  CHECKPOINT_ERROR_MESSAGE,
  CHECKPOINT_EXPIRED_MESSAGE,
  CheckpointReason,
  GuidedError,
  GuidedErrorCode,
  ProtocolReason,
} from './errors.js';
export { ProgressStatus, PrepareStatus, SubmitStatus, BlockerCode, FailureCode, FailureReason } from './codes.js';
export { renderHostAsset } from './host/render.js';
export { HOST_CAPABILITY_BITS, VALIDATOR_CAPABILITY_BITS } from './checkpoint/codec.js';
export { migrationFacts, resolveMigrationTarget } from './engine/migrate.js';
export type { MigrationFacts, MigrationSource, MigrationTarget } from './engine/migrate.js';
export { elicitedContinue } from './elicit/elicited-continue.js';
export type { ElicitedContinueDeps, ElicitedRound, FormAnswer } from './elicit/elicited-continue.js';
export { questionForm } from './elicit/question-form.js';
export type { QuestionForm } from './elicit/question-form.js';
export {
  releaseSkillPackages,
  skillUri,
  skillUriRelease,
  SKILL_URI_PREFIX,
  RELEASE_ASSET_META_KEY,
} from './host/skill-packages.js';
export type { SkillFile, SkillPackage } from './host/skill-packages.js';
export { pinnedHostAssetFiles } from './host/pinned-assets.js';
export type { PinnedAdapterAssets, PinnedHostAsset } from './host/pinned-assets.js';
