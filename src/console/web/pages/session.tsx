/**
 * A guided session at a glance: a `.rimthan/workflow-session.json` from an allowed workspace or an upload, checked
 * by the guided tools against its pinned release. The answer lives in this page only: nothing is stored, here or on
 * the server, and nothing of the file goes into the address bar.
 */
import { useState } from 'preact/hooks';
import type { MeAnswer, SessionAnswer } from '../../api-types.js';
import { post } from '../api.js';
import { Badge, Digest, ErrorBox, Time } from '../components/common.js';
import { WorkflowGraph } from '../components/graph.js';
import { href } from '../route.js';

function Glance({ s }: { s: SessionAnswer }) {
  if (!s.verified) {
    return (
      <div class="verdict failed" role="alert">
        <Badge kind="failed">not verified</Badge> {s.problem?.code}: {s.problem?.message}
        <p class="muted">
          The console checks a checkpoint with the serving process's signing keys (RIMTHAN_WORKFLOW_SIGNING_SECRET or
          the kept key file).
        </p>
      </div>
    );
  }
  const current = s.graph?.nodes.find((n) => n.id === s.current_step);
  return (
    <div class="glance">
      <div class="verdict ok">
        <Badge kind="added">verified</Badge> against <strong>{s.release}</strong>: {s.workflow?.title}{' '}
        <span class="muted">
          {s.workflow?.id}@{s.workflow?.version}
        </span>
      </div>
      <p class="lead">
        Current step: <strong class="current-step">{current?.title ?? s.current_step}</strong> · checkpoint #
        {s.sequence} issued {s.issued_at !== null && <Time iso={s.issued_at} />} · host {s.host?.harness} (
        {s.host?.adapter.id}@{s.host?.adapter.version})
      </p>
      {s.workflow !== null && s.release !== null && (
        <p>
          <a href={href(['releases', s.release, 'workflows', s.workflow.id, s.workflow.version])}>
            Open this workflow version →
          </a>
        </p>
      )}
      {s.problem !== null && (
        <div class="blocker" role="alert">
          The next call would be refused: {s.problem.code}
          {s.problem.reason !== undefined && ` (${s.problem.reason})`}: {s.problem.message}
        </div>
      )}
      <div class="split">
        <div class="graph-pane">
          {s.graph !== null && (
            <WorkflowGraph graph={s.graph} current={s.current_step} done={s.done_steps} label="Session workflow" />
          )}
        </div>
        <aside class="next">
          {s.next !== null && (
            <>
              <h3>Next call</h3>
              <p class="next-summary">
                {s.next.tool !== null && <code>{s.next.tool}</code>} {s.next.summary}
              </p>
              {s.next.missing_outputs.length > 0 && (
                <>
                  <h4>Outputs still without a receipt</h4>
                  <ul>
                    {s.next.missing_outputs.map((o) => (
                      <li key={o.artifact_id}>
                        <code>{o.path}</code> <span class="muted">{o.artifact_id}</span>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {s.next.missing_validators.length > 0 && (
                <>
                  <h4>Validators still without a pass</h4>
                  <ul>
                    {s.next.missing_validators.map((v) => (
                      <li key={v.id}>
                        {v.title}{' '}
                        <span class="muted">
                          {v.id}@{v.version}
                        </span>{' '}
                        {v.required && <Badge kind="required">required</Badge>}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {s.next.question !== null && (
                <div class="question-box">
                  <strong>Question:</strong> {s.next.question.prompt}
                  <ul>
                    {s.next.question.options.map((o) => (
                      <li key={String(o.value)}>
                        <code>{String(o.value)}</code> — {o.label}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
          {s.blockers.length > 0 && (
            <>
              <h3>Blockers</h3>
              <ul class="blockers">
                {s.blockers.map((b, i) => (
                  <li key={i}>
                    <code>{b.code}</code> {b.detail}
                  </li>
                ))}
              </ul>
            </>
          )}
        </aside>
      </div>
      <h3>Receipts</h3>
      <table class="table receipts">
        <tbody>
          {s.receipts.artifacts.map((a) => (
            <tr key={a.artifact_id}>
              <td>artifact</td>
              <td>
                <code>{a.artifact_id}</code> <span class="muted">{a.step ?? ''}</span>
              </td>
              <td>
                <Digest value={a.sha256} />
              </td>
            </tr>
          ))}
          {s.receipts.validators.map((v) => (
            <tr key={v.key}>
              <td>validator</td>
              <td>
                <code>{v.key}</code> <Badge kind="added">{v.outcome}</Badge>
              </td>
              <td>
                <Digest value={v.input_sha256} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.receipts.artifacts.length + s.receipts.validators.length === 0 && <p class="muted">No receipts yet.</p>}
      <h3>Confirmed state</h3>
      <p class="muted">Field names and confirmations only; values stay in the participant's repository.</p>
      <ul class="fields">
        {s.confirmed_fields.map((f) => (
          <li key={f.field}>
            <code>{f.field}</code>
            {f.value !== undefined && (
              <>
                {' '}
                = <code>{String(f.value)}</code>
              </>
            )}{' '}
            <span class="muted">confirmed by {f.confirmed_by}</span> <Time iso={f.confirmed_at} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SessionPage({ me }: { me: MeAnswer }) {
  const [answer, setAnswer] = useState<SessionAnswer | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const inspect = (body: unknown): void => {
    setBusy(true);
    setError(null);
    setAnswer(null);
    post<SessionAnswer>('/api/guided/inspect', body).then(
      (a) => {
        setBusy(false);
        setAnswer(a);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };
  const upload = (event: Event): void => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file === undefined) return;
    file.text().then(
      (text) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text) as unknown;
        } catch {
          setError(new Error('the file is not JSON'));
          return;
        }
        inspect({ file: parsed });
      },
      () => setError(new Error('the file could not be read')),
    );
  };
  return (
    <section>
      <h2>Guided session</h2>
      <p class="lead">Open a participant's .rimthan/workflow-session.json to see where the workflow stands.</p>
      <div class="session-sources">
        {me.workspaces.length > 0 && (
          <div>
            <h3>From a workspace</h3>
            <ul class="workspaces">
              {me.workspaces.map((w) => (
                <li key={w.index}>
                  <button type="button" disabled={busy} onClick={() => inspect({ workspace: w.index })}>
                    Open {w.label}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div>
          <h3>Upload a session file</h3>
          <input
            type="file"
            id="session-file"
            name="session-file"
            accept="application/json,.json"
            onChange={upload}
            disabled={busy}
          />
        </div>
      </div>
      {busy && <p class="loading">Checking…</p>}
      {error !== null && <ErrorBox error={error} />}
      {answer !== null && <Glance s={answer} />}
    </section>
  );
}
