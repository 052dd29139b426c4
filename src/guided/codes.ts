/**
 * The closed public vocabulary of the four guided tools: status words, start/continue blocker codes, deterministic
 * failure codes and their reasons. These strings are part of the wire contract (spec: guided-protocol.md,
 * resources-prompts-adapters.md); the tool schemas enumerate exactly these values.
 */

/** start_workflow / continue_workflow statuses. */
export const ProgressStatus = {
  Active: 'active',
  Blocked: 'blocked',
  InputRequired: 'input_required',
  Completed: 'completed',
} as const;
export type ProgressStatus = (typeof ProgressStatus)[keyof typeof ProgressStatus];

/** prepare_step_validation statuses. */
export const PrepareStatus = {
  DeterministicValidationFailed: 'deterministic_validation_failed',
  ReadyForSemanticValidation: 'ready_for_semantic_validation',
} as const;
export type PrepareStatus = (typeof PrepareStatus)[keyof typeof PrepareStatus];

/** submit_step_validation statuses. */
export const SubmitStatus = {
  ValidationFailed: 'validation_failed',
  InputRequired: 'input_required',
  Advanced: 'advanced',
  Completed: 'completed',
} as const;
export type SubmitStatus = (typeof SubmitStatus)[keyof typeof SubmitStatus];

/** Why start/continue returned `blocked`. */
export const BlockerCode = {
  UnsupportedHarness: 'unsupported_harness',
  UnsupportedHostAdapter: 'unsupported_host_adapter',
  HostAdapterAssetMissing: 'host_adapter_asset_missing',
  HostAdapterContractUnavailable: 'host_adapter_contract_unavailable',
  HostAdapterBindingMismatch: 'host_adapter_binding_mismatch',
  MissingHostCapability: 'missing_host_capability',
  MissingValidatorCapability: 'missing_validator_capability',
  RepositoryPolicyConflict: 'repository_policy_conflict',
  ConfirmationRequired: 'confirmation_required',
  MigrationConfirmationRequired: 'migration_confirmation_required',
} as const;
export type BlockerCode = (typeof BlockerCode)[keyof typeof BlockerCode];

/** Deterministic failure codes of prepare_step_validation. */
export const FailureCode = {
  RepositoryPolicyConflict: 'repository_policy_conflict',
  ValidatorCapabilityMismatch: 'validator_capability_mismatch',
  MissingValidatorCapability: 'missing_validator_capability',
  ArtifactCountExceeded: 'artifact_count_exceeded',
  ArtifactsTotalTooLarge: 'artifacts_total_too_large',
  DuplicateArtifact: 'duplicate_artifact',
  UndeclaredArtifact: 'undeclared_artifact',
  MissingArtifact: 'missing_artifact',
  MediaTypeMismatch: 'media_type_mismatch',
  ArtifactPathMismatch: 'artifact_path_mismatch',
  ArtifactTooLarge: 'artifact_too_large',
  InvalidJson: 'invalid_json',
  JsonSchemaFailed: 'json_schema_failed',
  EmptyArtifact: 'empty_artifact',
  ArtifactNotUtf8: 'artifact_not_utf8',
  InputReceiptMissing: 'input_receipt_missing',
  HostAttestationRequired: 'host_attestation_required',
  HostAttestationNotAllowed: 'host_attestation_not_allowed',
  HostBindingMismatch: 'host_binding_mismatch',
  WorkspaceManifestContractMismatch: 'workspace_manifest_contract_mismatch',
  OutputAttestationRequired: 'output_attestation_required',
  OutputAttestationNotAllowed: 'output_attestation_not_allowed',
  OutputAttestationMismatch: 'output_attestation_mismatch',
} as const;
export type FailureCode = (typeof FailureCode)[keyof typeof FailureCode];

/** The narrower reason carried by attestation and binding failures. */
export const FailureReason = {
  // host binding
  Harness: 'harness',
  AdapterId: 'adapter_id',
  AdapterVersion: 'adapter_version',
  HostCapabilities: 'host_capabilities',
  ValidatorCapabilities: 'validator_capabilities',
  // workspace manifest (host attestation) contract
  AssetMissing: 'asset_missing',
  AssetUnexpected: 'asset_unexpected',
  AssetDuplicate: 'asset_duplicate',
  AssetDigestMismatch: 'asset_digest_mismatch',
  DeliveryModeNotAllowed: 'delivery_mode_not_allowed',
  ProjectLocalPathMismatch: 'project_local_path_mismatch',
  PathCollision: 'path_collision',
  ManifestAttestationMismatch: 'manifest_attestation_mismatch',
  // output attestation
  StepMismatch: 'step_mismatch',
  OutputMissing: 'output_missing',
  OutputUnexpected: 'output_unexpected',
  OutputDuplicate: 'output_duplicate',
  PathMismatch: 'path_mismatch',
  OwnerStepMismatch: 'owner_step_mismatch',
  MediaTypeMismatch: 'media_type_mismatch',
  SchemaDigestMismatch: 'schema_digest_mismatch',
  MaxBytesMismatch: 'max_bytes_mismatch',
  ContentDigestMismatch: 'content_digest_mismatch',
  SymlinkNotExcluded: 'symlink_not_excluded',
  ReadbackNotVerified: 'readback_not_verified',
  WritePolicyMismatch: 'write_policy_mismatch',
  // repository policy
  PolicyDeclaredConflict: 'policy_declared_conflict',
  ProtectedPath: 'protected_path',
} as const;
export type FailureReason = (typeof FailureReason)[keyof typeof FailureReason];
