/**
 * The console's view of a participant's `.rimthan/workflow-session.json`: read and shape-checked by the participant
 * module (rimthan/participant, the one reader of session files: strict JSON, bounded, never through a symbolic link),
 * with its refusal turned into a message the page shows. Only the shape is checked here; what the checkpoint proves is
 * decided by the guided tools' own verification. Read from an allowed workspace or taken from an upload; never kept.
 */
import type { JsonValue } from '../../core/index.js';
import {
  isParticipantError,
  MAX_SESSION_BYTES,
  readSessionShape,
  SESSION_FILE,
  sessionShape,
  Workspace,
} from '../../participant/index.js';
import type { SessionState } from '../../participant/index.js';

export { SESSION_FILE };
/** A session file holds a checkpoint envelope and a bounded confirmed state: far below this. */
export const MAX_SESSION_FILE_BYTES = MAX_SESSION_BYTES;

export type SessionFile = SessionState;

export type SessionRead =
  { readonly ok: true; readonly session: SessionFile } | { readonly ok: false; readonly message: string };

/** The participant's refusal as the page shows it; anything else is a fault and propagates. */
function refused(error: unknown): SessionRead {
  if (isParticipantError(error)) return { ok: false, message: error.message };
  throw error;
}

/** Checks the documented shape: exactly `checkpoint` and `confirmed_state`, both objects. */
export function sessionFileOf(value: JsonValue): SessionRead {
  try {
    return { ok: true, session: sessionShape(value) };
  } catch (error) {
    return refused(error);
  }
}

/** Reads `<workspace>/.rimthan/workflow-session.json`; a symbolic link for `.rimthan` or the file is refused. */
export function readSessionFile(workspace: string): SessionRead {
  let root: Workspace;
  try {
    root = new Workspace(workspace);
  } catch {
    return { ok: false, message: `no ${SESSION_FILE} in this workspace` };
  }
  try {
    const session = readSessionShape(root);
    return session === undefined
      ? { ok: false, message: `no ${SESSION_FILE} in this workspace` }
      : { ok: true, session };
  } catch (error) {
    if (isParticipantError(error)) return refused(error);
    return { ok: false, message: `no readable ${SESSION_FILE} in this workspace` };
  }
}
