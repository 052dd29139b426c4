/**
 * A run's flow graph (GET /api/runs/:id/graph) drawn with the console's graph drawing (graph.tsx): each vertex with
 * its state (waiting, running, done, failed, skipped), duration, attempts and parallel branches; conditional edges as
 * dashed arrows to a decision, error routes as red `on error` arrows. Beside it: what the parked run awaits (timers
 * with their wake-up time, events by name, child runs) and the child runs as links to their run pages. Shows only
 * ids, labels, states, times and counts: never the run's input or state.
 */
import { useEffect, useState } from 'preact/hooks';
import type { RunGraphAnswer, RunGraphVertexView } from '../../api-types.js';
import { apiPath, get } from '../api.js';
import { Badge, ErrorBox, Time } from './common.js';
import { DagreGraph, wrap } from './graph.js';
import type { DrawEdge, DrawNode, Line } from './graph.js';
import { href } from '../route.js';

/** `1.2 s`, `340 ms`, `3 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 3600
    ? `${Math.floor(s / 60)} min ${s % 60} s`
    : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

function vertexLines(v: RunGraphVertexView, graph: RunGraphAnswer): Line[] {
  const lines: Line[] = wrap(v.label, 30, 2).map((text) => ({ text, kind: 'title' }));
  const facts: string[] = [v.state];
  if (v.duration_ms !== undefined) facts.push(duration(v.duration_ms));
  if (v.state === 'running' && v.started_at !== undefined) facts.push(`since ${clock(v.started_at)}`);
  if (v.completions > 1) facts.push(`×${v.completions}`);
  lines.push({ text: facts.join(' · '), kind: 'detail' });
  if (v.branches !== undefined && v.branches.total > 1) {
    lines.push({ text: `${v.branches.done}/${v.branches.total} branches done`, kind: 'detail' });
  }
  if (v.attempts !== undefined) lines.push({ text: `${v.attempts} tries spent`, kind: 'detail' });
  if (v.routed === true) lines.push({ text: `handled by ${v.on_error ?? 'its error route'}`, kind: 'detail' });
  const policy: string[] = [];
  if (v.for_each_max_items !== undefined) policy.push(`forEach ≤ ${v.for_each_max_items}`);
  if (v.retry !== undefined) policy.push(`retry ${v.retry.attempts}×`);
  if (v.timeout_ms !== undefined) policy.push(`timeout ${duration(v.timeout_ms)}`);
  if (v.join) policy.push('join');
  if (policy.length > 0) lines.push({ text: policy.join(' · '), kind: 'detail' });
  const awaits = graph.awaits;
  if (awaits?.vertex === v.id) {
    for (const t of awaits.timers)
      if (!t.passed) lines.push({ text: `timer until ${clock(t.until)}`, kind: 'question' });
    for (const e of awaits.events) {
      if (e.outcome === undefined) lines.push({ text: `awaits event ${e.name}`, kind: 'question' });
    }
    for (const c of awaits.children) lines.push({ text: `awaits child ${c.slice(0, 8)}…`, kind: 'question' });
  }
  return lines;
}

const DECISION = '\u0000decision:';
const START = '\u0000start';

function drawing(graph: RunGraphAnswer): { nodes: DrawNode[]; edges: DrawEdge[] } {
  const nodes = graph.vertices.map((v): DrawNode => ({
    id: v.id,
    lines: vertexLines(v, graph),
    classes: [
      'node',
      'vertex',
      `state-${v.state}`,
      ...(v.join ? ['join'] : []),
      ...(v.for_each_max_items === undefined ? [] : ['for-each']),
    ],
    rounded: v.for_each_max_items === undefined ? 6 : 2,
    ariaLabel: `${v.label}: ${v.state}`,
    attrs: { 'data-vertex': v.id, 'data-state': v.state },
  }));
  nodes.push({
    id: START,
    lines: [{ text: 'START', kind: 'title' }],
    classes: ['node', 'start'],
    rounded: 14,
    ariaLabel: 'start',
    attrs: {},
  });
  const edges: DrawEdge[] = [{ from: START, to: graph.start }];
  for (const e of graph.edges) {
    if (e.kind === 'conditional' && e.to !== null) edges.push({ from: e.from, to: e.to, className: 'conditional' });
    else if (e.kind === 'conditional') {
      const id = `${DECISION}${e.from}`;
      nodes.push({
        id,
        lines: [{ text: 'decision', kind: 'question' }],
        classes: ['node', 'decision'],
        rounded: 14,
        ariaLabel: `decision after ${e.from}`,
        attrs: { 'data-decision': e.from },
      });
      edges.push({ from: e.from, to: id, className: 'conditional' });
    } else if (e.kind === 'error') edges.push({ from: e.from, to: e.to, label: 'on error', className: 'error' });
    else edges.push({ from: e.from, to: e.to });
  }
  for (const v of graph.vertices) {
    if (!graph.edges.some((e) => e.from === v.id && e.kind !== 'error')) edges.push({ from: v.id, to: null });
  }
  return { nodes, edges };
}

export function FlowGraph({ graph, session }: { graph: RunGraphAnswer; session: string | undefined }) {
  const { nodes, edges } = drawing(graph);
  const starters = new Map<string, string>();
  for (const v of graph.vertices) for (const c of v.child_runs) starters.set(c, v.label);
  const awaits = graph.awaits;
  return (
    <div class="flow-graph split">
      <div class="graph-pane">
        <DagreGraph
          nodes={nodes}
          edges={edges}
          label={`Flow graph of ${graph.definition_name}@${graph.definition_version}`}
        />
        <p class="legend">
          <span class="key state-waiting">waiting</span>
          <span class="key state-running">running</span>
          <span class="key state-done">done</span>
          <span class="key state-failed">failed</span>
          <span class="key state-skipped">skipped</span>
          dashed arrow: a decision at run time · red arrow: error route
          {graph.history_truncated && ' · long history: durations cover its first entries'}
        </p>
      </div>
      {(awaits !== undefined || graph.children.length > 0) && (
        <aside class="next run-waits">
          {awaits !== undefined && (
            <>
              <h4>Awaiting</h4>
              <ul class="awaits" aria-label="What the run awaits">
                {awaits.timers.map((t, i) => (
                  <li key={`t${i}`} data-await="timer">
                    timer: wakes at <Time iso={t.until} />
                    {t.passed && ' (passed)'}
                  </li>
                ))}
                {awaits.events.map((e, i) => (
                  <li key={`e${i}`} data-await="event">
                    event <code>{e.name}</code>
                    {e.until !== null && (
                      <>
                        {' '}
                        until <Time iso={e.until} />
                      </>
                    )}
                    {e.outcome !== undefined && ` (${e.outcome.replace('_', ' ')})`}
                  </li>
                ))}
                {awaits.children.map((c) => (
                  <li key={c} data-await="child">
                    child run <a href={href(['runs', c], { session })}>{c}</a>
                  </li>
                ))}
              </ul>
            </>
          )}
          {graph.children.length > 0 && (
            <>
              <h4>Child runs</h4>
              <ul class="child-runs" aria-label="Child runs">
                {graph.children.map((c) => (
                  <li key={c.run_id} data-child={c.run_id} data-status={c.run_status}>
                    <a href={href(['runs', c.run_id], { session })}>
                      {c.definition_name}@{c.definition_version}
                    </a>{' '}
                    <Badge kind={`status-${c.run_status}`}>{c.run_status}</Badge>
                    {starters.has(c.run_id) && <span class="muted"> · from {starters.get(c.run_id)}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </aside>
      )}
    </div>
  );
}

/**
 * Loads the run's graph and reloads it whenever `tick` changes (the run page's live stream moved: a new revision or
 * history entry), keeping the last drawing meanwhile so the graph never flickers.
 */
export function RunFlowGraph({ runId, session, tick }: { runId: string; session: string | undefined; tick: string }) {
  const [graph, setGraph] = useState<RunGraphAnswer | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let live = true;
    get<RunGraphAnswer>(apiPath('runs', runId, 'graph'), { session }).then(
      (answer) => {
        if (!live) return;
        setGraph(answer);
        setError(null);
      },
      (e: unknown) => live && setError(e instanceof Error ? e : new Error(String(e))),
    );
    return () => {
      live = false;
    };
  }, [runId, session, tick]);
  if (error !== null && graph === null) return <ErrorBox error={error} />;
  if (graph === null) return <p class="loading">Loading the flow graph…</p>;
  return <FlowGraph graph={graph} session={session} />;
}
