/**
 * A run's flow graph with each vertex's state, as the run page draws it: a pure function of the flow's shape, the
 * run's record, its history (vertex_completed entries and their times), its latest checkpoint (the current step, a
 * parallel frontier, what a parked vertex awaits) and its child runs. Only vertex ids and labels, statuses, times,
 * counts, event names and child run ids leave here: never the run's input, its state, a fan-out item or a failure
 * message (docs/operations/participant-data-perimeter.md).
 */
import type { ActivityEntry, FlowCheckpoint, FlowShape, RunRecord } from '../../runs/index.js';
import type {
  RunGraphAnswer,
  RunGraphAwaitView,
  RunGraphChildView,
  RunGraphVertexView,
  VertexStateView,
} from '../api-types.js';

export interface RunGraphInput {
  readonly shape: FlowShape;
  readonly record: RunRecord;
  /** The run's history in order (possibly only its first entries: `truncated`). */
  readonly history: readonly ActivityEntry[];
  readonly truncated: boolean;
  readonly checkpoint: FlowCheckpoint | undefined;
  /** The run's child runs (of its session). */
  readonly children: readonly RunRecord[];
  readonly now: Date;
}

/** A vertex_completed message of a failure an error route took over (branch-steps.ts routedMessage). */
const ROUTED = /^failed \([a-z0-9_]{1,64}\); handled by /;
/** Child run ids named by a vertex_completed message (wait-memo.ts describeWaits). */
const CHILD_RUN = /child run ([A-Za-z0-9_-]{1,128})/g;

interface Seen {
  completions: number;
  lastAt: number | undefined;
  duration: number | undefined;
  routed: boolean;
  children: string[];
}

function ms(iso: string): number {
  return Date.parse(iso);
}

/** Each vertex's predecessors: static edges and error routes into it, and every vertex with a conditional edge. */
function predecessorsOf(shape: FlowShape): Map<string, string[]> {
  const preds = new Map<string, string[]>(shape.vertices.map((v) => [v.id, []]));
  const deciders = shape.vertices.filter((v) => v.decision).map((v) => v.id);
  for (const e of shape.edges) if (e.to !== null) preds.get(e.to)?.push(e.from);
  for (const [id, list] of preds) for (const d of deciders) if (!list.includes(d) && d !== id) list.push(d);
  return preds;
}

/** When the step that led to `vertex` began: the latest start/resume or completion of a predecessor so far. */
function stepStart(
  vertex: string,
  preds: ReadonlyMap<string, readonly string[]>,
  seen: ReadonlyMap<string, Seen>,
  controlAt: number | undefined,
): number | undefined {
  let at = controlAt;
  for (const p of preds.get(vertex) ?? []) {
    const t = seen.get(p)?.lastAt;
    if (t !== undefined && (at === undefined || t > at)) at = t;
  }
  return at;
}

function readHistory(
  input: RunGraphInput,
  preds: Map<string, string[]>,
): { seen: Map<string, Seen>; controlAt?: number } {
  const seen = new Map<string, Seen>(
    input.shape.vertices.map((v) => [
      v.id,
      { completions: 0, lastAt: undefined, duration: undefined, routed: false, children: [] },
    ]),
  );
  let controlAt: number | undefined = ms(input.record.created_at);
  for (const entry of input.history) {
    const at = ms(entry.occurred_at);
    if (entry.kind === 'run_started' || entry.kind === 'run_resumed') {
      controlAt = at;
      continue;
    }
    if (entry.kind !== 'vertex_completed' || entry.vertex_id === undefined) continue;
    const s = seen.get(entry.vertex_id);
    if (s === undefined) continue;
    const start = stepStart(entry.vertex_id, preds, seen, controlAt);
    s.completions += 1;
    s.duration = start === undefined ? undefined : Math.max(0, at - start);
    s.lastAt = at;
    s.routed = entry.message !== undefined && ROUTED.test(entry.message);
    for (const m of (entry.message ?? '').matchAll(CHILD_RUN)) {
      const id = m[1];
      if (id !== undefined && !s.children.includes(id)) s.children.push(id);
    }
  }
  return { seen, ...(controlAt === undefined ? {} : { controlAt }) };
}

/** The vertices of the current step and, per vertex, its branches in a parallel frontier. */
function currentStep(cp: FlowCheckpoint | undefined): {
  current: Set<string>;
  branches: Map<string, { total: number; done: number }>;
} {
  const current = new Set<string>();
  const branches = new Map<string, { total: number; done: number }>();
  if (cp === undefined) return { current, branches };
  if (cp.frontier !== undefined) {
    cp.frontier.slots.forEach((slot, i) => {
      const b = branches.get(slot.vertex) ?? { total: 0, done: 0 };
      b.total += 1;
      if (cp.frontier?.done[i] !== null) b.done += 1;
      else current.add(slot.vertex);
      branches.set(slot.vertex, b);
    });
  } else if (cp.next_vertex !== null) current.add(cp.next_vertex);
  return { current, branches };
}

function awaitsOf(cp: FlowCheckpoint | undefined, now: Date): RunGraphAwaitView | undefined {
  const memo = cp?.waits;
  if (memo === undefined || memo.waits.length === 0) return undefined;
  const view: {
    vertex: string;
    timers: { until: string; passed: boolean }[];
    events: { name: string; until: string | null; outcome?: 'received' | 'timed_out' }[];
    children: string[];
  } = { vertex: memo.vertex, timers: [], events: [], children: [] };
  for (const w of memo.waits) {
    if (w.kind === 'sleep')
      view.timers.push({ until: new Date(w.until).toISOString(), passed: w.until <= now.getTime() });
    else if (w.kind === 'event') {
      view.events.push({
        name: w.name,
        until: w.until === null ? null : new Date(w.until).toISOString(),
        ...(w.outcome === undefined ? {} : { outcome: w.outcome }),
      });
    } else if (w.run_id !== '') view.children.push(w.run_id);
  }
  return view;
}

function stateOf(
  id: string,
  s: Seen,
  record: RunRecord,
  current: ReadonlySet<string>,
): { state: VertexStateView; failedHere: boolean } {
  const status = record.status;
  const here = current.has(id);
  if (status === 'interrupted' && record.interrupt?.vertex === id) {
    return record.interrupt.reason === 'task_failed'
      ? { state: 'failed', failedHere: true }
      : { state: 'waiting', failedHere: false };
  }
  if (status === 'failed' && here) return { state: 'failed', failedHere: true };
  if (status === 'running' && here) return { state: 'running', failedHere: false };
  if (s.completions > 0) return { state: s.routed ? 'failed' : 'done', failedHere: false };
  const terminal = status === 'completed' || status === 'cancelled' || status === 'failed';
  return { state: terminal ? 'skipped' : 'waiting', failedHere: false };
}

/** The run's graph with vertex states (deterministic for the same inputs). */
export function runGraphOf(input: RunGraphInput): RunGraphAnswer {
  const { shape, record, checkpoint } = input;
  const preds = predecessorsOf(shape);
  const { seen, controlAt } = readHistory(input, preds);
  const { current, branches } = currentStep(checkpoint);
  const awaits = awaitsOf(checkpoint, input.now);
  const vertices = shape.vertices.map((v): RunGraphVertexView => {
    const s = seen.get(v.id) ?? { completions: 0, lastAt: undefined, duration: undefined, routed: false, children: [] };
    const { state, failedHere } = stateOf(v.id, s, record, current);
    const children = [...s.children];
    if (awaits?.vertex === v.id) for (const c of awaits.children) if (!children.includes(c)) children.push(c);
    const start = state === 'running' || state === 'waiting' ? stepStart(v.id, preds, seen, controlAt) : undefined;
    const b = branches.get(v.id);
    return {
      id: v.id,
      label: v.label,
      state,
      completions: s.completions,
      ...(state !== 'running' && s.duration !== undefined ? { duration_ms: s.duration } : {}),
      ...(current.has(v.id) && start !== undefined ? { started_at: new Date(start).toISOString() } : {}),
      ...(failedHere ? { attempts: v.retry?.attempts ?? 1 } : {}),
      ...(s.routed && state === 'failed' ? { routed: true } : {}),
      ...(b === undefined ? {} : { branches: { total: b.total, done: b.done } }),
      ...(v.retry === undefined ? {} : { retry: { attempts: v.retry.attempts, backoff_ms: v.retry.backoffMs } }),
      ...(v.timeoutMs === undefined ? {} : { timeout_ms: v.timeoutMs }),
      ...(v.forEachMaxItems === undefined ? {} : { for_each_max_items: v.forEachMaxItems }),
      ...(v.onError === undefined ? {} : { on_error: v.onError }),
      fan_out: v.fanOut,
      join: v.join,
      decision: v.decision,
      child_runs: children,
    };
  });
  const children: RunGraphChildView[] = input.children.map((c) => ({
    run_id: c.run_id,
    definition_name: c.definition_name,
    definition_version: c.definition_version,
    run_status: c.status,
  }));
  return {
    run_id: record.run_id,
    definition_name: record.definition_name,
    definition_version: record.definition_version,
    run_status: record.status,
    checkpoint_revision: record.checkpoint_revision,
    start: shape.start,
    vertices,
    edges: shape.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind })),
    ...(awaits === undefined || record.status !== 'running' ? {} : { awaits }),
    children,
    history_truncated: input.truncated,
  };
}
