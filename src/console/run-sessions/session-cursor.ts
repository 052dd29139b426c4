/**
 * The opaque cursor of the console's session list (like the `workflow_run_list` cursor, src/tools/list-cursor.ts):
 * base64url of `s1:` and the last session id on the page, the store's byte order continuing after it. Strictly
 * decoded: one spelling per cursor (canonical base64url of valid UTF-8, the version prefix, a session id of 1 to 256
 * bytes as the store holds them), anything else is refused. At most 348 characters, under the query parameter limit.
 */
import { STORE_LIMITS } from '../../runs/index.js';

const PREFIX = 's1:';
const ALPHABET = /^[A-Za-z0-9_-]{1,348}$/;

/** Encodes the session id of the last session returned. */
export function encodeSessionCursor(session: string): string {
  return Buffer.from(`${PREFIX}${session}`, 'utf8').toString('base64url');
}

/** The session id a cursor encodes, or undefined when the cursor is not one this list issued. */
export function decodeSessionCursor(cursor: string): string | undefined {
  if (!ALPHABET.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX) || encodeSessionCursor(text.slice(PREFIX.length)) !== cursor) return undefined;
  const session = text.slice(PREFIX.length);
  const bytes = Buffer.byteLength(session, 'utf8');
  return bytes === 0 || bytes > STORE_LIMITS.maxIdentifierBytes ? undefined : session;
}
