/**
 * The register-time half of the join rule: vertices that can run in one parallel step must not write a common state
 * key unless that key has a reducer (else the merge at the barrier would depend on which write wins).
 *
 * The steps a run can take are explored from every vertex over static edges and error routes (a step's next step is
 * the union of its vertices' targets). A conditional edge's targets are only known at run time, so the exploration does
 * not follow it; the barrier repeats the check on the real writes (branch-merge.ts), so a conflict behind a
 * conditional edge fails the run with the same message instead of merging silently.
 */

/** What the check reads of a compiled vertex (graph.ts's CheckedVertex has these). */
interface CheckedVertex {
  readonly id: string;
  readonly next: readonly unknown[];
  readonly writes: ReadonlySet<string> | undefined;
  readonly forEach: unknown;
  readonly onError: string | undefined;
}

interface CheckedGraph {
  readonly start: string;
  readonly vertices: ReadonlyMap<string, CheckedVertex>;
  readonly reducers: ReadonlyMap<string, unknown>;
}

/** Steps explored at most (a graph with more distinct parallel steps is checked at run time beyond them). */
const MAX_STEPS = 10_000;
/** Alternative next steps kept per step (error routes multiply them). */
const MAX_ALTERNATIVES = 64;

/** The static target sets `vertex` may continue with: its static edges, and its error route when it has one. */
function alternatives(vertex: CheckedVertex): string[][] {
  const targets: string[] = [];
  for (const edge of vertex.next) {
    const list: unknown[] = typeof edge === 'string' ? [edge] : Array.isArray(edge) ? edge : [];
    for (const t of list) if (typeof t === 'string' && !targets.includes(t)) targets.push(t);
  }
  return vertex.onError === undefined ? [targets] : [targets, [vertex.onError]];
}

function nextSteps(graph: CheckedGraph, step: readonly string[]): string[][] {
  let partials: Set<string>[] = [new Set()];
  for (const id of step) {
    const vertex = graph.vertices.get(id);
    if (vertex === undefined) continue;
    const alts = alternatives(vertex);
    const grown: Set<string>[] = [];
    for (const partial of partials) {
      for (const alt of alts) {
        if (grown.length >= MAX_ALTERNATIVES) break;
        grown.push(new Set([...partial, ...alt]));
      }
    }
    partials = grown;
  }
  return partials.filter((p) => p.size > 0).map((p) => [...p].sort());
}

function describeKey(key: string): string {
  return JSON.stringify(key);
}

/** The conflict of one step, if any: a member without `writes`, or a key two members (or fan-out instances) share. */
function stepConflict(graph: CheckedGraph, step: readonly string[]): string | undefined {
  const members = step.map((id) => graph.vertices.get(id)).filter((v): v is CheckedVertex => v !== undefined);
  const parallel = members.length > 1 || members.some((v) => v.forEach !== undefined);
  if (!parallel) return undefined;
  for (const v of members) {
    if (v.writes === undefined) {
      const peer = members.find((m) => m !== v);
      const why = peer === undefined ? 'fans out (forEach)' : `can run in parallel with ${peer.id}`;
      return `vertex ${v.id} ${why} and must declare the state keys it writes (writes)`;
    }
    if (v.forEach !== undefined) {
      for (const key of v.writes) {
        if (!graph.reducers.has(key)) {
          return `vertex ${v.id} fans out (forEach) and writes state key ${describeKey(key)}, which has no reducer`;
        }
      }
    }
  }
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      const a = members[i];
      const b = members[j];
      if (a?.writes === undefined || b?.writes === undefined) continue;
      for (const key of a.writes) {
        if (b.writes.has(key) && !graph.reducers.has(key)) {
          return (
            `vertices ${a.id} and ${b.id} can run in parallel and both write state key ${describeKey(key)}, ` +
            'which has no reducer'
          );
        }
      }
    }
  }
  return undefined;
}

/** The first parallel-write conflict the graph's static steps allow, as an invalid_definition message. */
export function checkParallelWrites(graph: CheckedGraph): string | undefined {
  const seen = new Set<string>();
  // Every vertex can be a step of its own (the start, or the target of a conditional edge); fan-outs grow from there.
  const queue: string[][] = [[graph.start], ...[...graph.vertices.keys()].map((id) => [id])];
  while (queue.length > 0 && seen.size < MAX_STEPS) {
    const step = queue.shift() ?? [];
    const key = step.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    const conflict = stepConflict(graph, step);
    if (conflict !== undefined) return conflict;
    queue.push(...nextSteps(graph, step));
  }
  return undefined;
}
