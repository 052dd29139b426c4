/**
 * The participant library's refusals: one error class with closed codes, raised before anything reaches the server
 * (a path the server would refuse, a symlink, a report set that cannot match the bundle, a session file that was
 * edited). Messages name the cause (a workspace path, a validator id, a field) and never carry file contents.
 */
import { RimthanError } from '../core/index.js';
import type { ErrorCode } from '../core/index.js';

export const ParticipantErrorCode = {
  /** A path is not a safe workspace-relative POSIX path (absolute, `..`, a reserved folder such as `.git`). */
  UnsafePath: 'unsafe_path',
  /** A component of a workspace path is a symbolic link (never followed). */
  SymlinkRefused: 'symlink_refused',
  /** A path exists but is not a regular file (or a parent is not a folder). */
  NotAFile: 'not_a_file',
  /** A declared output (or an input the validators read) is not on disk. */
  OutputMissing: 'output_missing',
  /** What is on disk breaks the output's write policy (e.g. a create-owned artifact replaced). */
  WritePolicyViolation: 'write_policy_violation',
  /** A file is larger than the declaration allows, or is not UTF-8 text. */
  ArtifactUnreadable: 'artifact_unreadable',
  /** A host asset's content (inline or read from its resource) does not have the served digest. */
  AssetDigestMismatch: 'asset_digest_mismatch',
  /** The step payload offers no delivery mode this host can use for an asset. */
  DeliveryUnavailable: 'delivery_unavailable',
  /** A validator report is missing, extra, duplicated, stale, or not a report. */
  ReportMissing: 'report_missing',
  ReportExtra: 'report_extra',
  ReportDuplicate: 'report_duplicate',
  ReportStale: 'report_stale',
  ReportInvalid: 'report_invalid',
  /** The session file is not a Rimthan session file (shape), or its confirmed state does not match its checkpoint. */
  SessionInvalid: 'session_invalid',
  SessionTampered: 'session_tampered',
  /** There is no session file yet. */
  SessionMissing: 'session_missing',
  /** The step cannot be handled this way (e.g. prepare on an ungated step, no step payload). */
  WrongStep: 'wrong_step',
  /** The server refused or failed a call, or is not a Rimthan workflow-engine server on the session's release. */
  ServerRefused: 'server_refused',
  ServerMismatch: 'server_mismatch',
} as const satisfies Readonly<Record<string, ErrorCode>>;
export type ParticipantErrorCode = (typeof ParticipantErrorCode)[keyof typeof ParticipantErrorCode];

/** A refusal of the participant library (see ParticipantErrorCode). */
export class ParticipantError extends RimthanError {
  override readonly name = 'ParticipantError';
  declare readonly code: ParticipantErrorCode;

  constructor(code: ParticipantErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** True for a ParticipantError (optionally of one code). */
export function isParticipantError(error: unknown, code?: ParticipantErrorCode): error is ParticipantError {
  return error instanceof ParticipantError && (code === undefined || error.code === code);
}
