/**
 * The console's session list: the run store's sessions with their run counts by status and last activity, through
 * the one store read the console makes itself (`listSessions`; everything about runs goes through the run tools). The
 * operator pages through every session of the store; a caller's list holds its own session only. Session ids are the
 * store's pseudonyms (a caller's is `bearer-` and a digest of its token), never a token.
 */
import type { RunInsights, SessionQuery, SessionSummary } from '../../runs/index.js';
import type { SessionsAnswer, SessionView } from '../api-types.js';
import { decodeSessionCursor, encodeSessionCursor } from './session-cursor.js';

/** The store read the session list needs: one read of the store's insights role. */
export type ConsoleSessionStore = Pick<RunInsights, 'listSessions'>;

/** Sessions per page by default, and at most. */
export const SESSION_PAGE = 20;
export const MAX_SESSION_PAGE = 50;

export type SessionsOutcome =
  | { readonly ok: true; readonly value: SessionsAnswer }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

const INTEGER = /^[1-9]\d{0,2}$/;

function invalid(message: string): SessionsOutcome {
  return { ok: false, error: { code: 'invalid_arguments', message } };
}

function viewOf(s: SessionSummary): SessionView {
  return { session: s.session_id, runs: s.runs, by_status: s.by_status, last_activity: s.last_activity };
}

export class ConsoleSessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly onFault?: (error: unknown) => void,
  ) {}

  /**
   * One page after the cursor `after` (from an earlier page's `next`), `limit` sessions (1..50, as text from the
   * query). `own` set: only that session (a caller's view).
   */
  async page(own: string | undefined, after: string | undefined, limit: string | undefined): Promise<SessionsOutcome> {
    if (limit !== undefined && (!INTEGER.test(limit) || Number(limit) > MAX_SESSION_PAGE)) {
      return invalid(`query parameter "limit" must be an integer from 1 to ${MAX_SESSION_PAGE}`);
    }
    const size = limit === undefined ? SESSION_PAGE : Number(limit);
    const from = after === undefined ? undefined : decodeSessionCursor(after);
    if (after !== undefined && from === undefined) return invalid('"after" must be a cursor from this list');
    // One more than the page: `next` only when another session really follows.
    const query: SessionQuery = {
      limit: size + 1,
      ...(from === undefined ? {} : { after_session_id: from }),
      ...(own === undefined ? {} : { session_id: own }),
    };
    let found: SessionSummary[];
    try {
      found = await this.store.listSessions(query);
    } catch (error) {
      this.onFault?.(error);
      return { ok: false, error: { code: 'unavailable', message: 'reading the sessions failed; retry later' } };
    }
    const sessions = found.slice(0, size).map(viewOf);
    const last = sessions.at(-1);
    return {
      ok: true,
      value: {
        sessions,
        ...(found.length > size && last !== undefined ? { next: encodeSessionCursor(last.session) } : {}),
      },
    };
  }
}
