/** Two releases compared: manifest entries, steps per workflow, and what a migration between them would invalidate. */
import type { DiffAnswer, EntryChange, ReleasesAnswer } from '../../api-types.js';
import { get } from '../api.js';
import { Badge, Show } from '../components/common.js';
import { navigate } from '../route.js';
import { useApi } from '../use-api.js';

function Entries({ title, kind, list }: { title: string; kind: string; list: readonly EntryChange[] }) {
  if (list.length === 0) return null;
  return (
    <>
      <h4>
        {title} <Badge kind={kind}>{list.length}</Badge>
      </h4>
      <table class={`table entries entries-${kind}`}>
        <tbody>
          {list.map((e) => (
            <tr key={`${e.type}/${e.key}`}>
              <td>{e.type}</td>
              <td>
                <code>{e.key}</code>
              </td>
              <td>
                {e.from.join(', ') || '—'} → {e.to.join(', ') || '—'}
                {e.rewritten.length > 0 && <Badge kind="failed">content differs in {e.rewritten.join(', ')}</Badge>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function DiffView({ diff }: { diff: DiffAnswer }) {
  return (
    <div class="diff">
      <h3>Entries</h3>
      <Entries title="Added" kind="added" list={diff.entries.added} />
      <Entries title="Removed" kind="removed" list={diff.entries.removed} />
      <Entries title="Changed" kind="changed" list={diff.entries.changed} />
      <h3>Workflows</h3>
      {diff.workflows.map((w) => (
        <div key={w.id} class="workflow-diff">
          <h4>
            {w.id}: {w.from_version ?? 'absent'} → {w.to_version ?? 'absent'}
          </h4>
          <ul>
            {w.steps.added.map((s) => (
              <li key={`a${s}`} class="added">
                step <code>{s}</code> added
              </li>
            ))}
            {w.steps.removed.map((s) => (
              <li key={`r${s}`} class="removed">
                step <code>{s}</code> removed
              </li>
            ))}
            {w.steps.changed.map((s) => (
              <li key={`c${s.id}`} class="changed">
                step <code>{s.id}</code> changed: {s.aspects.join(', ')}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <h3>Migration</h3>
      {diff.migrations.map((m) => (
        <div key={`${m.workflow}@${m.from_version}`} class="migration">
          <h4>
            {m.workflow}@{m.from_version} →{' '}
            {m.to_version === null ? 'no version in the target' : `${m.workflow}@${m.to_version}`}{' '}
            {m.refusal === null ? (
              <Badge kind="added">possible</Badge>
            ) : (
              <Badge kind="failed">{m.refusal.reason}</Badge>
            )}
          </h4>
          {m.refusal !== null ? (
            <p>{m.refusal.message}</p>
          ) : (
            <>
              <p>
                A migrated checkpoint restarts at <code>{m.restart_step}</code> in {diff.to}; every confirmed-state
                field is confirmed again
                {m.reconfirm_schema !== null && ` (against ${m.reconfirm_schema.id}@${m.reconfirm_schema.version})`}.
              </p>
              <p>
                Invalidated artifact receipts:{' '}
                {m.invalidated_artifacts.map((a) => (
                  <code key={a}>{a} </code>
                ))}
              </p>
              <p>
                Invalidated validator receipts:{' '}
                {m.invalidated_validators.map((v) => (
                  <code key={v}>{v} </code>
                ))}
              </p>
            </>
          )}
          <table class="table">
            <tbody>
              {m.host_adapters.map((h) => {
                const from = h.from === null ? 'none' : `${h.from.id}@${h.from.version}`;
                const to = h.to === null ? 'none' : `${h.to.id}@${h.to.version}`;
                return (
                  <tr key={h.harness}>
                    <td>{h.harness}</td>
                    <td>
                      {from} → {to} {from !== to && <Badge kind="changed">adapter changes</Badge>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

export function DiffPage({ from, to }: { from: string | undefined; to: string | undefined }) {
  const [releases] = useApi(() => get<ReleasesAnswer>('/api/releases'), []);
  const [diff] = useApi(
    () =>
      from === undefined || to === undefined ? Promise.resolve(undefined) : get<DiffAnswer>('/api/diff', { from, to }),
    [from, to],
  );
  const choose = (side: 'from' | 'to', value: string): void => navigate(['diff'], { from, to, [side]: value });
  return (
    <section>
      <h2>Compare releases</h2>
      <Show loaded={releases}>
        {(data) => (
          <form class="inline" onSubmit={(e) => e.preventDefault()}>
            {(['from', 'to'] as const).map((side) => (
              <label key={side}>
                {side}{' '}
                <select
                  name={side}
                  value={(side === 'from' ? from : to) ?? ''}
                  onChange={(e) => choose(side, e.currentTarget.value)}
                >
                  <option value="">—</option>
                  {data.releases.map((r) => (
                    <option key={r.release} value={r.release}>
                      {r.release}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </form>
        )}
      </Show>
      <Show loaded={diff}>
        {(d) => (d === undefined ? <p class="muted">Choose two releases.</p> : <DiffView diff={d} />)}
      </Show>
    </section>
  );
}
