import { RimthanError } from '../core/index.js';
import type { ErrorCode } from '../core/index.js';

/** Error codes the guided engine throws; the MCP layer turns them into structured tool errors. */
export const GuidedErrorCode = {
  /** A checkpoint or validation-bundle token that is malformed, forged, stale or disagrees with its envelope. */
  CheckpointError: 'workflow_checkpoint_error',
  /** A well-formed call that breaks the protocol (wrong report set, wrong host, unknown workflow, ...). */
  ProtocolError: 'workflow_protocol_error',
} as const satisfies Readonly<Record<string, ErrorCode>>;
export type GuidedErrorCode = (typeof GuidedErrorCode)[keyof typeof GuidedErrorCode];

/** Why a protocol error was raised: a closed, participant-data-free word the caller may show or branch on. */
export const ProtocolReason = {
  UnknownWorkflow: 'unknown_workflow',
  UnknownWorkflowVersion: 'unknown_workflow_version',
  ConfirmedStateMismatch: 'confirmed_state_mismatch',
  ConfirmedStateSchemaFailed: 'confirmed_state_schema_failed',
  ConfirmedStateFieldRemoved: 'confirmed_state_field_removed',
  ConfirmationWithoutField: 'confirmation_without_field',
  MigrationUnavailable: 'migration_unavailable',
  MigrationTargetMismatch: 'migration_target_mismatch',
  MigrationNotNewer: 'migration_not_newer',
  MigrationSameRelease: 'migration_same_release',
  BranchAmbiguous: 'branch_ambiguous',
  ReportSetMismatch: 'report_set_mismatch',
  ReportDuplicate: 'report_duplicate',
  ReportInstructionMismatch: 'report_instruction_mismatch',
  ReportInputMismatch: 'report_input_mismatch',
  ReportHostMismatch: 'report_host_mismatch',
  ReusedReceiptMissing: 'reused_receipt_missing',
  ElicitedAnswerInvalid: 'elicited_answer_invalid',
} as const;
export type ProtocolReason = (typeof ProtocolReason)[keyof typeof ProtocolReason];

/**
 * The one checkpoint failure that says why: a checkpoint older than its lifetime (RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE)
 * is expired, so the harness knows to start over instead of retrying. Every other checkpoint failure stays generic.
 */
export const CheckpointReason = {
  Expired: 'checkpoint_expired',
} as const;
export type CheckpointReason = (typeof CheckpointReason)[keyof typeof CheckpointReason];

/** The message of an expired checkpoint (no age, no time: the caller only needs to know it must start again). */
export const CHECKPOINT_EXPIRED_MESSAGE =
  'the workflow checkpoint is older than the server accepts; start the workflow again';

/** The one message every checkpoint failure carries: it never says which check failed or echoes input. */
export const CHECKPOINT_ERROR_MESSAGE = 'the workflow checkpoint or validation bundle could not be verified';

/**
 * A guided-engine failure. `message` is always safe to return to the caller (no participant data); `reason` narrows
 * a protocol error to a closed word, and `issues` (schema keyword + path only) may accompany a schema failure.
 */
export class GuidedError extends RimthanError {
  override readonly name = 'GuidedError';
  declare readonly code: GuidedErrorCode;
  readonly reason: ProtocolReason | CheckpointReason | undefined;
  readonly issues: readonly { keyword: string; schemaPath: string }[];

  constructor(
    code: GuidedErrorCode,
    message: string,
    details: {
      reason?: ProtocolReason | CheckpointReason;
      issues?: readonly { keyword: string; schemaPath: string }[];
    } = {},
  ) {
    super(code, message);
    this.reason = details.reason;
    this.issues = details.issues ?? [];
  }
}

/** The generic fail-closed checkpoint error (one message whatever went wrong). */
export function checkpointError(): GuidedError {
  return new GuidedError(GuidedErrorCode.CheckpointError, CHECKPOINT_ERROR_MESSAGE);
}

/** A checkpoint older than its lifetime: workflow_checkpoint_error with the reason `checkpoint_expired`. */
export function checkpointExpired(): GuidedError {
  return new GuidedError(GuidedErrorCode.CheckpointError, CHECKPOINT_EXPIRED_MESSAGE, {
    reason: CheckpointReason.Expired,
  });
}

/** A protocol error with its closed reason word. */
export function protocolError(
  reason: ProtocolReason,
  message: string,
  issues?: readonly { keyword: string; schemaPath: string }[],
): GuidedError {
  return new GuidedError(
    GuidedErrorCode.ProtocolError,
    message,
    issues === undefined ? { reason } : { reason, issues },
  );
}
