/**
 * `.rimthan/pending-validation.json`: between prepare and submit, the signed validation bundle, the validators
 * prepare listed and the report files registered so far (paths, never their contents), bound to the checkpoint it
 * was prepared against. Local to one machine and kept out of Git (`.rimthan/.gitignore`): after a handoff the
 * teammate prepares again.
 */
import { isJsonObject, parseStrictJsonBytes, sha256Hex } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import type { Workspace } from './workspace.js';

export const PENDING_FILE_NAME = 'pending-validation.json';
const GITIGNORE =
  '# Written by rimthan: only the participant session file belongs in Git.\n*\n!.gitignore\n!workflow-session.json\n';

export interface PendingValidation {
  /** SHA-256 of the checkpoint token the bundle was prepared against. */
  readonly checkpoint_token_sha256: string;
  readonly step_id: string;
  readonly validation_bundle: JsonObject;
  readonly validators: readonly JsonObject[];
  /** validator id → workspace-relative or absolute path of its report file. */
  readonly reports: Readonly<Record<string, string>>;
}

/** The digest that binds pending work to a checkpoint. */
export function tokenDigest(checkpoint: JsonObject): string {
  return sha256Hex(typeof checkpoint['token'] === 'string' ? checkpoint['token'] : '');
}

/** Reads the pending validation; undefined when there is none or it belongs to another checkpoint. */
export function readPending(workspace: Workspace, checkpoint: JsonObject): PendingValidation | undefined {
  const bytes = workspace.readState(PENDING_FILE_NAME, 1024 * 1024);
  if (bytes === undefined) return undefined;
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: 1024 * 1024 });
  if (!parsed.ok || !isJsonObject(parsed.value)) {
    throw new ParticipantError(
      ParticipantErrorCode.SessionInvalid,
      `.rimthan/${PENDING_FILE_NAME} is not JSON; prepare again`,
    );
  }
  const pending = parsed.value as unknown as PendingValidation;
  return pending.checkpoint_token_sha256 === tokenDigest(checkpoint) ? pending : undefined;
}

/** Writes the pending validation (and `.rimthan/.gitignore` when there is none). */
export function writePending(workspace: Workspace, pending: PendingValidation): void {
  if (workspace.readState('.gitignore', 64 * 1024) === undefined) {
    workspace.writeState('.gitignore', Buffer.from(GITIGNORE, 'utf8'));
  }
  workspace.writeState(PENDING_FILE_NAME, Buffer.from(`${JSON.stringify(pending, null, 2)}\n`, 'utf8'));
}

/** Drops the pending validation (after submit). */
export function clearPending(workspace: Workspace): void {
  workspace.removeState(PENDING_FILE_NAME);
}
