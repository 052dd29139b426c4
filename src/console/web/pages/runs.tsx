/**
 * A session's runs: the session picked from the store's sessions (the operator) or one's own (a caller), filters, and
 * a start form.
 */
import { useState } from 'preact/hooks';
import type { DefinitionsAnswer, MeAnswer, RunsAnswer, SafeRunView } from '../../api-types.js';
import { get, post } from '../api.js';
import { Badge, ErrorBox, Show, Time } from '../components/common.js';
import { SchemaForm } from '../components/schema-form.js';
import { SessionPicker } from '../components/session-picker.js';
import { href, navigate } from '../route.js';
import { useApi } from '../use-api.js';

const STATUSES = ['pending', 'running', 'interrupted', 'completed', 'cancelled', 'failed'];

export function StatusBadge({ status }: { status: string }) {
  return <Badge kind={`status-${status}`}>{status}</Badge>;
}

function StartForm({ session, definitions }: { session: string; definitions: DefinitionsAnswer }) {
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const definition = definitions.definitions.find((d) => `${d.name}@${d.version}` === chosen);
  const start = (input: Record<string, unknown>): void => {
    if (definition === undefined) return;
    setBusy(true);
    post<SafeRunView>('/api/runs', {
      session,
      definition_name: definition.name,
      definition_version: definition.version,
      input,
    }).then(
      (run) => navigate(['runs', run.run_id], { session }),
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };
  return (
    <details class="start" open={chosen !== ''}>
      <summary>Start a run</summary>
      <label for="start-definition">Definition </label>
      <select id="start-definition" name="definition" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
        <option value="">—</option>
        {definitions.definitions.map((d) => (
          <option key={`${d.name}@${d.version}`} value={`${d.name}@${d.version}`}>
            {d.name}@{d.version}
          </option>
        ))}
      </select>
      {definition !== undefined && (
        <>
          <p class="muted">{definition.description}</p>
          <SchemaForm
            key={chosen}
            idPrefix="input"
            schema={definition.input_schema}
            submitLabel="Start run"
            busy={busy}
            onSubmit={start}
          />
        </>
      )}
      {error !== null && <ErrorBox error={error} />}
    </details>
  );
}

export function RunsPage({ me, query }: { me: MeAnswer; query: URLSearchParams }) {
  const session = me.mode === 'caller' ? (me.session ?? '') : (query.get('session') ?? me.session ?? '');
  const status = query.get('status') ?? '';
  const definition = query.get('definition') ?? '';
  const after = query.get('after') ?? undefined;
  const [runs, reload] = useApi(
    () =>
      session === ''
        ? Promise.resolve(undefined)
        : get<RunsAnswer>('/api/runs', {
            session: me.mode === 'operator' ? session : undefined,
            status,
            definition,
            after,
          }),
    [session, status, definition, after],
  );
  const [definitions] = useApi(
    () =>
      session === ''
        ? Promise.resolve(undefined)
        : get<DefinitionsAnswer>('/api/definitions', { session: me.mode === 'operator' ? session : undefined }),
    [session],
  );
  const set = (changes: Record<string, string | undefined>): void =>
    navigate(['runs'], {
      session: me.mode === 'operator' ? session : undefined,
      status,
      definition,
      ...changes,
      after: undefined,
    });
  return (
    <section>
      <h2>Runs</h2>
      {me.mode === 'caller' && (
        <p class="lead">
          Your session: <code>{session}</code>
        </p>
      )}
      <div class="runs-layout">
        <SessionPicker operator={me.mode === 'operator'} chosen={session} />
        <div class="session-runs">
          {session === '' && <p class="muted">Choose a session to see its runs.</p>}
          {session !== '' && (
            <>
              <h3>
                Session <code>{session}</code>
              </h3>
              <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
                <label>
                  Status{' '}
                  <select name="status" value={status} onChange={(e) => set({ status: e.currentTarget.value })}>
                    <option value="">any</option>
                    {STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Definition{' '}
                  <select
                    name="definition"
                    value={definition}
                    onChange={(e) => set({ definition: e.currentTarget.value })}
                  >
                    <option value="">any</option>
                    {definitions.state === 'ready' &&
                      definitions.data?.definitions.map((d) => (
                        <option key={`${d.name}@${d.version}`} value={`${d.name}@${d.version}`}>
                          {d.name}@{d.version}
                        </option>
                      ))}
                  </select>
                </label>
                <button type="button" onClick={reload}>
                  Refresh
                </button>
              </form>
              <Show loaded={definitions}>
                {(d) => d !== undefined && <StartForm session={session} definitions={d} />}
              </Show>
              <Show loaded={runs}>
                {(data) =>
                  data !== undefined && (
                    <>
                      <table class="table runs">
                        <thead>
                          <tr>
                            <th>Run</th>
                            <th>Definition</th>
                            <th>Status</th>
                            <th>Summary</th>
                            <th>Updated</th>
                          </tr>
                        </thead>
                        <tbody>
                          {data.runs.map((r) => (
                            <tr key={r.run_id} data-run={r.run_id}>
                              <td>
                                <a
                                  href={href(['runs', r.run_id], {
                                    session: me.mode === 'operator' ? session : undefined,
                                  })}
                                >
                                  <code>{r.run_id.slice(0, 8)}</code>
                                </a>
                              </td>
                              <td>
                                {r.definition_name}@{r.definition_version}
                              </td>
                              <td>
                                <StatusBadge status={r.run_status} />
                              </td>
                              <td>{r.status_summary ?? ''}</td>
                              <td>
                                <Time iso={r.updated_at} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                      {data.runs.length === 0 && <p class="muted">No runs match (looked at {data.scanned}).</p>}
                      {data.next !== undefined && (
                        <p>
                          <a
                            href={href(['runs'], {
                              session: me.mode === 'operator' ? session : undefined,
                              status,
                              definition,
                              after: data.next,
                            })}
                          >
                            More runs →
                          </a>
                        </p>
                      )}
                    </>
                  )
                }
              </Show>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
