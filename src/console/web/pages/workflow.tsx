/**
 * One workflow version: its graph (click a step for its detail), the host adapters with their delivery stances, and
 * the confirmed-state schema. The selected step is in the route, so a step's page can be linked.
 */
import type { HostAdapterView, StepAnswer, WorkflowAnswer } from '../../api-types.js';
import { apiPath, get } from '../api.js';
import { Badge, Digest, JsonBlock, Prose, Show } from '../components/common.js';
import { WorkflowGraph } from '../components/graph.js';
import { href, navigate } from '../route.js';
import { useApi } from '../use-api.js';

function Adapters({ adapters }: { adapters: readonly HostAdapterView[] }) {
  return (
    <table class="table adapters">
      <thead>
        <tr>
          <th>Harness</th>
          <th>Adapter</th>
          <th>Needs from the host</th>
          <th>Delivery (prompt · skill · subagent)</th>
          <th>Project-local paths</th>
        </tr>
      </thead>
      <tbody>
        {adapters.map((a) => (
          <tr key={a.harness} data-harness={a.harness}>
            <td>{a.harness}</td>
            <td>
              {a.title}{' '}
              <span class="muted">
                {a.id}@{a.version}
              </span>
            </td>
            <td>
              {a.contract === null ? (
                <Badge kind="failed">no contract (cannot start)</Badge>
              ) : (
                a.contract.required_host_capabilities.join(', ')
              )}
            </td>
            <td>
              {a.contract !== null &&
                ['prompt', 'skill', 'subagent'].map((kind) => (
                  <div key={kind}>
                    <span class="muted">{kind}:</span>{' '}
                    {(a.contract?.delivery[kind] ?? []).join(', ') || 'not delivered'}
                  </div>
                ))}
            </td>
            <td>
              {a.contract !== null &&
                Object.entries(a.contract.project_local_paths).map(([kind, p]) => (
                  <div key={kind}>
                    <span class="muted">{kind}:</span> <code>{p}</code>
                  </div>
                ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StepDetail({ release, id, version, step }: { release: string; id: string; version: string; step: string }) {
  const [loaded] = useApi(
    () => get<StepAnswer>(apiPath('releases', release, 'workflows', id, version, 'steps', step)),
    [release, id, version, step],
  );
  return (
    <aside class="step-detail" aria-label="Step detail">
      <Show loaded={loaded}>
        {({ step: s }) => (
          <>
            <h3>
              {s.title} <span class="muted">{s.id}</span>
            </h3>
            {s.question !== null && (
              <div class="question-box">
                <strong>Asks:</strong> {s.question.prompt} <span class="muted">({s.question.field})</span>
                {s.question.options.length > 0 && (
                  <ul>
                    {s.question.options.map((o) => (
                      <li key={String(o.value)}>
                        <code>{String(o.value)}</code> — {o.label}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            <h4>Transitions</h4>
            {s.next !== null ? (
              <p>Next: {s.next}</p>
            ) : s.branches.length > 0 ? (
              <ul>
                {s.branches.map((b) => (
                  <li key={b.label}>
                    when <code>{b.label}</code> → {b.to}
                  </li>
                ))}
              </ul>
            ) : (
              <p>Terminal: the workflow completes here.</p>
            )}
            {s.instruction !== null && (
              <details open class="instruction">
                <summary>
                  Instruction: {s.instruction.title}{' '}
                  <span class="muted">
                    {s.instruction.id}@{s.instruction.version}
                  </span>
                </summary>
                <Prose text={s.instruction.content} />
              </details>
            )}
            {s.inputs.length > 0 && (
              <p>
                Reads:{' '}
                {s.inputs.map((i) => (
                  <code key={i}>{i} </code>
                ))}
              </p>
            )}
            <h4>Outputs</h4>
            {s.outputs.length === 0 ? (
              <p class="muted">none</p>
            ) : (
              s.outputs.map((o) => (
                <details key={o.artifact_id} class="output">
                  <summary>
                    <code>{o.path}</code>{' '}
                    <span class="muted">
                      {o.artifact_id} · {o.media_type} · ≤ {o.max_bytes} bytes · {o.write_policy}
                    </span>
                  </summary>
                  {o.schema !== null ? (
                    <>
                      <p>
                        Schema {o.schema.id}@{o.schema.version} <Digest value={o.schema.sha256} />
                      </p>
                      <JsonBlock value={o.schema.schema} />
                    </>
                  ) : (
                    <p class="muted">Markdown, no schema</p>
                  )}
                </details>
              ))
            )}
            <h4>Validators</h4>
            {s.validators.length === 0 ? (
              <p class="muted">none</p>
            ) : (
              s.validators.map((v) => (
                <details key={v.id} class="validator">
                  <summary>
                    {v.title}{' '}
                    <span class="muted">
                      {v.id}@{v.version}
                    </span>{' '}
                    {v.required ? <Badge kind="required">required</Badge> : <Badge kind="optional">optional</Badge>}
                  </summary>
                  <p>
                    Reads {v.input_artifacts.join(', ')} · needs {v.required_capabilities.join(', ') || 'no capability'}
                  </p>
                  {v.brief !== null && <Prose text={v.brief.content} />}
                </details>
              ))
            )}
            {s.host_assets.length > 0 && (
              <>
                <h4>Host assets</h4>
                <ul>
                  {s.host_assets.map((a) => (
                    <li key={`${a.kind}/${a.id}`}>
                      {a.kind}: {a.title}{' '}
                      <span class="muted">
                        {a.id}@{a.version}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </Show>
    </aside>
  );
}

export function WorkflowPage({
  release,
  id,
  version,
  step,
}: {
  release: string;
  id: string;
  version: string;
  step: string | undefined;
}) {
  const [loaded] = useApi(
    () => get<WorkflowAnswer>(apiPath('releases', release, 'workflows', id, version)),
    [release, id, version],
  );
  return (
    <section>
      <p class="crumbs">
        <a href={href(['releases'])}>Releases</a> / <a href={href(['releases', release])}>{release}</a> / {id}@{version}
      </p>
      <Show loaded={loaded}>
        {(data) => (
          <>
            <h2>
              {data.workflow.title}{' '}
              <span class="muted">
                {data.workflow.id}@{data.workflow.version}
              </span>
            </h2>
            <p class="lead">{data.workflow.description}</p>
            <p class="muted">
              Starts at {data.workflow.start_step} · entry names:{' '}
              {[data.workflow.id, ...data.workflow.entry_aliases].join(', ')} · host needs:{' '}
              {data.workflow.required_host_capabilities.join(', ')} · validators need:{' '}
              {data.workflow.required_validator_capabilities.join(', ')}
            </p>
            <div class="split">
              <div class="graph-pane">
                <WorkflowGraph
                  graph={data.graph}
                  selected={step}
                  label={`Workflow ${data.workflow.title}`}
                  onSelect={(s) => navigate(['releases', release, 'workflows', id, version, 'steps', s])}
                />
                <p class="legend">
                  <span class="key gated">gated step</span> <span class="key branching">branch</span> Click a step for
                  its instruction, outputs and validators.
                </p>
              </div>
              {step !== undefined && <StepDetail release={release} id={id} version={version} step={step} />}
            </div>
            <h3>Host adapters</h3>
            <Adapters adapters={data.host_adapters} />
            {data.workflow.confirmed_state_schema !== null && (
              <details class="state-schema">
                <summary>
                  Confirmed-state schema {data.workflow.confirmed_state_schema.id}@
                  {data.workflow.confirmed_state_schema.version}
                </summary>
                <JsonBlock value={data.workflow.confirmed_state_schema.schema} />
              </details>
            )}
          </>
        )}
      </Show>
    </section>
  );
}
