/**
 * The one reader of a participant's `.rimthan/workflow-session.json` in the console: `{ checkpoint, confirmed_state }`
 * (docs/harness/protocol-walkthrough.md, "The checkpoint and the session file"). It checks the file's shape only; what
 * the checkpoint proves is decided by the guided tools' own verification. Read from an allowed workspace (never
 * through a symbolic link, at most MAX_SESSION_FILE_BYTES) or taken from an upload; never kept.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, parseStrictJsonBytes } from '../core/index.js';
import type { JsonObject, JsonValue } from '../core/index.js';

/** Where a harness keeps the session, relative to its repository. */
export const SESSION_FILE = '.rimthan/workflow-session.json';
/** A session file holds a checkpoint envelope and a bounded confirmed state: far below this. */
export const MAX_SESSION_FILE_BYTES = 1024 * 1024;

export interface SessionFile {
  readonly checkpoint: JsonObject;
  readonly confirmed_state: JsonObject;
}

export type SessionRead =
  { readonly ok: true; readonly session: SessionFile } | { readonly ok: false; readonly message: string };

/** Checks the documented shape: exactly `checkpoint` and `confirmed_state`, both objects. */
export function sessionFileOf(value: JsonValue): SessionRead {
  if (!isJsonObject(value)) return { ok: false, message: 'a session file is one JSON object' };
  const extra = Object.keys(value).find((k) => k !== 'checkpoint' && k !== 'confirmed_state');
  if (extra !== undefined)
    return { ok: false, message: 'a session file holds only "checkpoint" and "confirmed_state"' };
  const checkpoint = value['checkpoint'];
  const confirmed = value['confirmed_state'];
  if (!isJsonObject(checkpoint)) return { ok: false, message: '"checkpoint" must be the checkpoint envelope object' };
  if (!isJsonObject(confirmed)) return { ok: false, message: '"confirmed_state" must be the confirmed-state object' };
  return { ok: true, session: { checkpoint, confirmed_state: confirmed } };
}

function readBounded(path: string): { ok: true; bytes: Uint8Array } | { ok: false; message: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { ok: false, message: `no readable ${SESSION_FILE} in this workspace` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, message: `${SESSION_FILE} is not a regular file` };
    if (stat.size > MAX_SESSION_FILE_BYTES)
      return { ok: false, message: `${SESSION_FILE} exceeds ${MAX_SESSION_FILE_BYTES} bytes` };
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > stat.size) return { ok: false, message: `${SESSION_FILE} grew while it was read` };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}

/** Reads `<workspace>/.rimthan/workflow-session.json`; a symbolic link for `.rimthan` or the file is refused. */
export function readSessionFile(workspace: string): SessionRead {
  const folder = join(workspace, '.rimthan');
  try {
    if (lstatSync(folder).isSymbolicLink())
      return { ok: false, message: '.rimthan is a symbolic link; it is not followed' };
  } catch {
    return { ok: false, message: `no ${SESSION_FILE} in this workspace` };
  }
  const read = readBounded(join(workspace, SESSION_FILE));
  if (!read.ok) return read;
  const parsed = parseStrictJsonBytes(read.bytes, { maxBytes: MAX_SESSION_FILE_BYTES });
  if (!parsed.ok) return { ok: false, message: `${SESSION_FILE} is not one strict JSON document` };
  return sessionFileOf(parsed.value);
}
