/**
 * The session picker of the runs page: the run store's sessions (an operator's: all of them, a page at a time; a
 * caller's: its own) with their run counts by status and last activity. Picking one shows its runs; the operator may
 * also name a session that holds no runs yet, to start the first.
 */
import { useState } from 'preact/hooks';
import type { SessionsAnswer, SessionView } from '../../api-types.js';
import { get } from '../api.js';
import { href, navigate } from '../route.js';
import { useApi } from '../use-api.js';
import { Badge, Show, Time } from './common.js';

const STATUS_ORDER = ['running', 'interrupted', 'pending', 'completed', 'cancelled', 'failed'];

function Counts({ session }: { session: SessionView }) {
  return (
    <span class="counts">
      {STATUS_ORDER.filter((s) => (session.by_status[s] ?? 0) > 0).map((s) => (
        <Badge key={s} kind={`status-${s}`}>
          {session.by_status[s]} {s}
        </Badge>
      ))}
    </span>
  );
}

export function SessionPicker({ operator, chosen }: { operator: boolean; chosen: string }) {
  // The cursors of the pages before this one, so "Previous" needs no cursor of its own.
  const [trail, setTrail] = useState<string[]>([]);
  const after = trail.at(-1);
  const [page] = useApi(() => get<SessionsAnswer>('/api/sessions', { after }), [after]);
  const [draft, setDraft] = useState('');
  return (
    <aside class="session-picker" aria-label="Sessions">
      <h3>Sessions</h3>
      <Show loaded={page}>
        {(data) => (
          <>
            {data.sessions.length === 0 ? (
              <p class="muted">{operator ? 'The run store holds no runs yet.' : 'Your session has no runs yet.'}</p>
            ) : (
              <table class="table sessions">
                <thead>
                  <tr>
                    <th>Session</th>
                    <th>Runs</th>
                    <th>Last activity</th>
                  </tr>
                </thead>
                <tbody>
                  {data.sessions.map((s) => (
                    <tr
                      key={s.session}
                      data-session={s.session}
                      class={s.session === chosen ? 'chosen' : ''}
                      aria-current={s.session === chosen ? 'true' : undefined}
                    >
                      <td class="session-id">
                        {operator ? (
                          <a href={href(['runs'], { session: s.session })}>
                            <code>{s.session}</code>
                          </a>
                        ) : (
                          <code>{s.session}</code>
                        )}
                      </td>
                      <td>
                        <strong class="total">{s.runs}</strong> <Counts session={s} />
                      </td>
                      <td>
                        <Time iso={s.last_activity} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {(trail.length > 0 || data.next !== undefined) && (
              <p class="pager">
                {trail.length > 0 && (
                  <button type="button" class="link" onClick={() => setTrail(trail.slice(0, -1))}>
                    ← Previous sessions
                  </button>
                )}
                {data.next !== undefined && (
                  <button type="button" class="link" onClick={() => setTrail([...trail, data.next ?? ''])}>
                    More sessions →
                  </button>
                )}
              </p>
            )}
          </>
        )}
      </Show>
      {operator && (
        <form
          class="inline session-name"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim() !== '') navigate(['runs'], { session: draft.trim() });
          }}
        >
          <label for="session">Another session </label>
          <input
            id="session"
            name="session"
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
            placeholder="a session id, to start its first run"
          />
          <button type="submit">Show</button>
        </form>
      )}
    </aside>
  );
}
