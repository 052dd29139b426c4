/**
 * rimthan/participant: the harness side of the guided protocol, for hosts and for people. It turns what a Rimthan
 * workflow-engine server serves into what the server expects, from the files on disk, never from memory of what was
 * written: host assets delivered as the adapter contract allows, the setup host attestation and each output
 * attestation read back (SHA-256 of the bytes on disk, lstat of every path component, write policy), prepare's
 * artifact list, validator work orders, report sets bound to the signed bundle, and `.rimthan/workflow-session.json`
 * for Git handoff. It uses the guided contracts and the official MCP client, never server internals.
 *
 * This file is the whole public surface of the subpath.
 */
export { ParticipantError, ParticipantErrorCode, isParticipantError } from './errors.js';
export { Workspace } from './workspace.js';
export type { PathState } from './workspace.js';
export { connectServer, describeTarget } from './connection.js';
export type { GuidedServer, ServerTarget, ToolError, ToolOutcome } from './connection.js';
export { assetText, stepPayloadOf, stepIdOf, str } from './payload.js';
export type {
  DeliveryMode,
  HostAssetPayload,
  OutputPayload,
  ResourceReader,
  ServedText,
  StepPayload,
  ValidatorPayload,
} from './payload.js';
export { assetLabel, chooseMode, deliverHostAssets, dynamicContextText } from './host-assets.js';
export type { AssetDelivery, DeliveredAssets, DeliveryOptions, DynamicAsset } from './host-assets.js';
export { loadSkillAsset, SKILLS_EXTENSION, skillUriOf } from './skill-assets.js';
export { RELEASE_ASSET_META_KEY } from '../guided/index.js';
export type { LoadedSkill, SkillGetter } from './skill-assets.js';
export {
  checkpointHost,
  deliveriesOnDisk,
  hostAttestationFor,
  hostAttestationFromDisk,
  MAX_READBACK_BYTES,
  outputAttestationFor,
  outputsFromDisk,
  readOutput,
  workspaceManifestFor,
  workspaceManifestText,
  writeOutput,
} from './attestations.js';
export type { CheckpointHost, PreparedArtifact } from './attestations.js';
export { workOrdersFor } from './work-orders.js';
export type { PreparedValidator, WorkOrder } from './work-orders.js';
export { assembleReports, requiredValidators } from './reports.js';
export type { GivenReport } from './reports.js';
export {
  checkSession,
  confirmedStateDigest,
  readSession,
  readSessionShape,
  sessionShape,
  MAX_SESSION_BYTES,
  requireSession,
  SESSION_FILE,
  SESSION_FILE_NAME,
  writeSession,
} from './session-file.js';
export type { SessionState } from './session-file.js';
export { PENDING_FILE_NAME, readPending } from './pending.js';
export type { PendingValidation } from './pending.js';
export { answerValue, confirmState } from './answers.js';
export {
  activeSummary,
  artifactPath,
  isGatedStep,
  pinnedWorkflow,
  releaseSummary,
  stepDefinition,
  workflowDefinition,
} from './release.js';
export { ParticipantSession, WORKSPACE_MANIFEST } from './session.js';
export type { HostDeclaration, Prepared, SessionOptions, StartOptions } from './session.js';
export { sessionStatus } from './status.js';
export type { SessionStatus } from './status.js';
