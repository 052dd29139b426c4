/**
 * One run: its status and interrupt, its flow graph with each vertex's state (live), the timeline of its history as it happens (server-sent events), a resume form
 * generated from the definition's resume schema, and cancel with a reason.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DefinitionsAnswer, HistoryEntryView, MeAnswer, SafeRunView } from '../../api-types.js';
import { apiPath, get, post } from '../api.js';
import { ErrorBox, Show, Time } from '../components/common.js';
import { RunFlowGraph } from '../components/flow-graph.js';
import { SchemaForm } from '../components/schema-form.js';
import { href } from '../route.js';
import { useApi } from '../use-api.js';
import { StatusBadge } from './runs.js';

interface Live {
  readonly run: SafeRunView | null;
  readonly entries: readonly HistoryEntryView[];
  readonly ended: boolean;
  readonly error: string | null;
}

const TERMINAL = new Set(['completed', 'cancelled', 'failed']);

/** Follows the run's event stream; a new `epoch` reopens it (after a resume or cancel the run moves again). */
function useRunEvents(runId: string, session: string | undefined, epoch: number): Live {
  const [live, setLive] = useState<Live>({ run: null, entries: [], ended: false, error: null });
  useEffect(() => {
    const params = new URLSearchParams();
    if (session !== undefined) params.set('session', session);
    const source = new EventSource(`${apiPath('runs', runId, 'events')}?${params.toString()}`);
    const seen = new Set<string>();
    source.addEventListener('run', (e) =>
      setLive((l) => ({ ...l, run: JSON.parse((e as MessageEvent<string>).data) as SafeRunView })),
    );
    source.addEventListener('entries', (e) => {
      const { entries } = JSON.parse((e as MessageEvent<string>).data) as { entries: HistoryEntryView[] };
      const fresh = entries.filter((x) => !seen.has(x.event_id));
      for (const x of fresh) seen.add(x.event_id);
      setLive((l) => ({
        ...l,
        entries: [...l.entries.filter((x) => !fresh.some((f) => f.event_id === x.event_id)), ...fresh],
      }));
    });
    source.addEventListener('end', () => {
      source.close();
      setLive((l) => ({ ...l, ended: true }));
    });
    source.addEventListener('error', (e) => {
      const data = (e as MessageEvent<string | undefined>).data;
      if (typeof data === 'string') {
        const error = (JSON.parse(data) as { error?: { message?: string } }).error;
        setLive((l) => ({ ...l, error: error?.message ?? 'the stream failed' }));
        source.close();
      } else if (source.readyState === EventSource.CLOSED) {
        // The stream was refused (e.g. no such run in this session): ask once more for the API's own words.
        get(apiPath('runs', runId), { session }).then(
          () => setLive((l) => ({ ...l, error: 'the live stream closed; reload the page to follow the run' })),
          (e: unknown) => setLive((l) => ({ ...l, error: e instanceof Error ? e.message : String(e) })),
        );
      }
    });
    setLive({ run: null, entries: [], ended: false, error: null });
    return () => source.close();
  }, [runId, session, epoch]);
  return live;
}

function Timeline({ entries }: { entries: readonly HistoryEntryView[] }) {
  return (
    <ol class="timeline" aria-label="Run history">
      {entries.map((e) => (
        <li key={e.event_id} class={`entry kind-${e.kind}`} data-kind={e.kind}>
          <span class="dot" />
          <span class="what">
            <strong>{e.kind.replace(/_/g, ' ')}</strong>
            {e.vertex_label !== undefined && <> · {e.vertex_label}</>}
            {e.completed_vertices !== undefined && e.total_vertices !== undefined && (
              <span class="muted">
                {' '}
                ({e.completed_vertices}/{e.total_vertices})
              </span>
            )}
            {e.message !== undefined && <div class="message">{e.message}</div>}
          </span>
          <span class="when">
            r{e.revision} · <Time iso={e.occurred_at} />
          </span>
        </li>
      ))}
    </ol>
  );
}

export function RunPage({ me, runId, query }: { me: MeAnswer; runId: string; query: URLSearchParams }) {
  const session = me.mode === 'operator' ? (query.get('session') ?? me.session ?? undefined) : undefined;
  const [epoch, setEpoch] = useState(0);
  const live = useRunEvents(runId, session, epoch);
  const [definitions] = useApi(() => get<DefinitionsAnswer>('/api/definitions', { session }), [session]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [reason, setReason] = useState('');
  const run = live.run;
  const act = (what: 'resume' | 'cancel', body: Record<string, unknown>): void => {
    setBusy(true);
    setError(null);
    post(apiPath('runs', runId, what), { ...(session === undefined ? {} : { session }), ...body }).then(
      () => {
        setBusy(false);
        setEpoch((n) => n + 1);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };
  return (
    <section>
      <p class="crumbs">
        <a href={href(['runs'], { session })}>Runs</a> / <code>{runId}</code>
      </p>
      {live.error !== null && <ErrorBox error={new Error(live.error)} />}
      {run !== null && (
        <>
          <h2>
            {run.definition_name}@{run.definition_version} <StatusBadge status={run.run_status} />
          </h2>
          <p class="lead">
            {run.status_summary ?? ''}{' '}
            <span class="muted">
              · revision {run.checkpoint_revision} · started <Time iso={run.created_at} />
            </span>
          </p>
          {run.interrupt !== undefined && (
            <div class="interrupt" role="status">
              Waiting at <strong>{run.interrupt.vertex_label}</strong>:{' '}
              {run.interrupt.reason === 'awaiting_input' ? 'awaiting input' : 'a task failed after its retries'}
            </div>
          )}
          {run.run_status === 'interrupted' && run.interrupt?.resume_supported === true && (
            <Show loaded={definitions}>
              {(d) => {
                const def = d.definitions.find(
                  (x) => x.name === run.definition_name && x.version === run.definition_version,
                );
                return def?.resume_schema === undefined ? null : (
                  <div class="resume">
                    <h3>Resume</h3>
                    <SchemaForm
                      key={`${run.checkpoint_revision}`}
                      idPrefix="resume"
                      schema={def.resume_schema}
                      submitLabel="Resume run"
                      busy={busy}
                      onSubmit={(resume) => act('resume', { resume })}
                    />
                  </div>
                );
              }}
            </Show>
          )}
          {!TERMINAL.has(run.run_status) && (
            <form
              class="cancel inline"
              onSubmit={(e) => {
                e.preventDefault();
                act('cancel', reason.trim() === '' ? {} : { reason });
              }}
            >
              <label for="cancel-reason">Cancel with reason </label>
              <input
                id="cancel-reason"
                name="reason"
                value={reason}
                maxLength={512}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
              <button type="submit" class="danger" disabled={busy}>
                Cancel run
              </button>
            </form>
          )}
          {error !== null && <ErrorBox error={error} />}
        </>
      )}
      <h3>Flow graph</h3>
      <RunFlowGraph
        runId={runId}
        session={session}
        tick={`${run?.checkpoint_revision ?? -1}:${run?.updated_at ?? ''}:${live.entries.length}:${String(live.ended)}`}
      />
      <h3>Timeline {!live.ended && live.run !== null && <span class="live">live</span>}</h3>
      <Timeline entries={live.entries} />
    </section>
  );
}
