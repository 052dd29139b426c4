/**
 * What the next step runs: the targets of the edges (or error routes) leaving a step, expanded into branches — a
 * `forEach` vertex becomes one branch per item of its list (bounded by its maxItems), an empty list skips it to its own
 * targets. One plain branch is a sequential step; anything else is a parallel step (a frontier).
 */
import type { JsonObject, JsonValue } from '../../core/json.js';
import { resolveNext, type CompiledGraph } from '../flow/graph.js';
import type { VertexFailure } from '../flow/types.js';
import type { Frontier, FrontierSlot } from './frontier-state.js';

export type PlanResult = { ok: true; slots: readonly FrontierSlot[] } | { ok: false; reason: string };

/** A target of the next step: a vertex, with the failure an error route hands it. */
export interface Target {
  readonly vertex: string;
  readonly failure?: VertexFailure;
}

/** True when the step is one plain vertex (no fan-out instance): it runs on the sequential path. */
export function isSequential(slots: readonly FrontierSlot[]): boolean {
  return slots.length === 1 && slots[0]?.index === undefined;
}

function edgeFailure(label: string): string {
  return `the edge after ${label} named no vertex of the flow`;
}

/** Expands `targets` (deduplicated by vertex, first wins) into the next step's branches over `state`. */
export function planStep(graph: CompiledGraph, state: Readonly<JsonObject>, targets: readonly Target[]): PlanResult {
  const slots: FrontierSlot[] = [];
  const queue = [...targets];
  const seen = new Set<string>();
  let skips = 0;
  while (queue.length > 0) {
    const target = queue.shift() as Target;
    if (seen.has(target.vertex)) continue;
    seen.add(target.vertex);
    const vertex = graph.vertices.get(target.vertex);
    if (vertex === undefined) return { ok: false, reason: `the step names vertex ${target.vertex}, not in the flow` };
    if (vertex.forEach === undefined) {
      slots.push(target.failure === undefined ? { vertex: vertex.id } : { vertex: vertex.id, failure: target.failure });
      continue;
    }
    let items: unknown;
    try {
      items = vertex.forEach(state);
    } catch {
      return { ok: false, reason: `the forEach of ${vertex.label} threw` };
    }
    if (!Array.isArray(items)) return { ok: false, reason: `the forEach of ${vertex.label} returned no list` };
    if (items.length > vertex.maxItems) {
      return {
        ok: false,
        reason: `${vertex.label} fanned out to ${items.length} items, more than its maxItems ${vertex.maxItems}`,
      };
    }
    if (items.length === 0) {
      // Nothing to map over: the vertex is skipped and control goes on along its own edges.
      if (++skips > graph.size) return { ok: false, reason: 'empty fan-outs skip around a cycle' };
      const next = resolveNext(graph, vertex, state);
      if (!next.ok) return { ok: false, reason: edgeFailure(vertex.label) };
      seen.delete(vertex.id);
      queue.push(...next.next.map((v) => ({ vertex: v })));
      continue;
    }
    (items as JsonValue[]).forEach((item, index) => slots.push({ vertex: vertex.id, item, index }));
  }
  return { ok: true, slots };
}

/** The targets after a completed parallel step: each branch's edges over the merged state, or its error route. */
export function barrierTargets(
  graph: CompiledGraph,
  merged: Readonly<JsonObject>,
  frontier: Frontier,
): { ok: true; targets: Target[] } | { ok: false; reason: string } {
  const targets: Target[] = [];
  for (let i = 0; i < frontier.slots.length; i++) {
    const slot = frontier.slots[i] as FrontierSlot;
    const done = frontier.done[i];
    const vertex = graph.vertices.get(slot.vertex);
    if (vertex === undefined) return { ok: false, reason: `the step names vertex ${slot.vertex}, not in the flow` };
    if (done?.routed !== undefined && vertex.onError !== undefined) {
      targets.push({ vertex: vertex.onError, failure: done.routed });
      continue;
    }
    const next = resolveNext(graph, vertex, merged);
    if (!next.ok) return { ok: false, reason: edgeFailure(vertex.label) };
    targets.push(...next.next.map((v) => ({ vertex: v })));
  }
  return { ok: true, targets };
}
