/**
 * The shape of a registered flow, as data to draw: its vertices (label, retry policy, timeout, `forEach` bound, error
 * route), its edges (static, conditional, error route), where it fans out and where parallel branches join. A pure
 * function of the compiled definition (no state, no input: conditional edges are functions, so their targets are not
 * known before a run and the shape shows them as a decision). `rimthan runs graph` prints it as Mermaid
 * (flow-mermaid.ts) and the console's run page draws it with each vertex's state.
 */
import type { FlowDefinition } from './catalog.js';
import type { CompiledVertex } from './graph.js';

/** One vertex as drawn. */
export interface FlowShapeVertex {
  readonly id: string;
  readonly label: string;
  /** Tries per execution (1 = no retry) and the first backoff, when the vertex retries. */
  readonly retry?: { readonly attempts: number; readonly backoffMs: number };
  readonly timeoutMs?: number;
  /** A dynamic fan-out vertex: it runs once per item of a list from the state, at most this many items. */
  readonly forEachMaxItems?: number;
  /** The error-route handler vertex. */
  readonly onError?: string;
  /** Several static edges leave it: its successors run concurrently as parallel branches. */
  readonly fanOut: boolean;
  /** Reached from two or more parallel branches of one step: it runs after their barrier (the join). */
  readonly join: boolean;
  /** One of its edges is a function of the state: where it goes is decided at run time. */
  readonly decision: boolean;
  /** No edge leaves it: a path of the flow ends after it. */
  readonly end: boolean;
}

export type FlowEdgeKind = 'static' | 'conditional' | 'error';

/**
 * One edge. A conditional edge goes to each target its vertex declares (`targets`), or, undeclared, has `to` null: its
 * targets are chosen at run time.
 */
export interface FlowShapeEdge {
  readonly from: string;
  readonly to: string | null;
  readonly kind: FlowEdgeKind;
}

export interface FlowShape {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly start: string;
  /** In declaration order. */
  readonly vertices: readonly FlowShapeVertex[];
  /** Per vertex in declaration order: its `next` edges in order, then its error route. */
  readonly edges: readonly FlowShapeEdge[];
}

function staticTargets(vertex: CompiledVertex): string[] {
  const out: string[] = [];
  for (const edge of vertex.next) {
    if (typeof edge === 'function') continue;
    for (const t of typeof edge === 'string' ? [edge] : edge) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** The flow's shape (deterministic: the same definition gives the same shape). */
export function flowShape(definition: FlowDefinition): FlowShape {
  const graph = definition.graph;
  const all = [...graph.vertices.values()];
  const targets = new Map(all.map((v) => [v.id, staticTargets(v)] as const));
  // A join: a vertex that two branches of one fan-out step lead to (statically).
  const joins = new Set<string>();
  for (const v of all) {
    const branches = targets.get(v.id) ?? [];
    if (branches.length < 2) continue;
    const reached = new Map<string, number>();
    for (const b of branches) for (const t of targets.get(b) ?? []) reached.set(t, (reached.get(t) ?? 0) + 1);
    for (const [t, n] of reached) if (n >= 2) joins.add(t);
  }
  const edges: FlowShapeEdge[] = [];
  const vertices = all.map((v): FlowShapeVertex => {
    const out = targets.get(v.id) ?? [];
    for (const to of out) edges.push({ from: v.id, to, kind: 'static' });
    const decision = v.next.some((e) => typeof e === 'function');
    if (decision && v.targets === undefined) edges.push({ from: v.id, to: null, kind: 'conditional' });
    for (const to of decision ? (v.targets ?? []) : []) edges.push({ from: v.id, to, kind: 'conditional' });
    if (v.onError !== undefined) edges.push({ from: v.id, to: v.onError, kind: 'error' });
    return {
      id: v.id,
      label: v.label,
      ...(v.retry.attempts > 1 ? { retry: { attempts: v.retry.attempts, backoffMs: v.retry.backoffMs } } : {}),
      ...(v.timeoutMs === undefined ? {} : { timeoutMs: v.timeoutMs }),
      ...(v.forEach === undefined ? {} : { forEachMaxItems: v.maxItems }),
      ...(v.onError === undefined ? {} : { onError: v.onError }),
      fanOut: out.length >= 2,
      join: joins.has(v.id),
      decision,
      end: v.next.length === 0,
    };
  });
  return {
    name: definition.name,
    version: definition.version,
    description: definition.description,
    start: graph.start,
    vertices,
    edges,
  };
}
