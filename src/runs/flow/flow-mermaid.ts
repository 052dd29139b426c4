/**
 * A flow's shape (flow-shape.ts) as a Mermaid `flowchart TD`, what `rimthan runs graph NAME@VERSION` prints. Vertices
 * are `v0`, `v1`, … in declaration order (no vertex id can collide with a Mermaid keyword); a `forEach` vertex is a
 * subroutine box with its item bound, a join says it waits at the barrier, retry policies and timeouts are lines of the
 * label. Static edges are solid arrows (several from one vertex: parallel branches), a conditional edge is a dashed
 * arrow to each target the vertex declares, or to a decision node when it declares none (its targets are chosen at run
 * time), an error route a thick red arrow labelled `on error`.
 */
import { mermaidText } from '../../core/mermaid-text.js';
import type { FlowShape, FlowShapeVertex } from './flow-shape.js';

function ms(value: number): string {
  return value % 1000 === 0 ? `${value / 1000}s` : `${value}ms`;
}

function labelOf(v: FlowShapeVertex, branches: number): string {
  const lines = [mermaidText(v.label)];
  if (v.label !== v.id) lines.push(mermaidText(`id: ${v.id}`));
  if (v.fanOut) lines.push(mermaidText(`fan-out: ${branches} parallel branches`));
  if (v.forEachMaxItems !== undefined) lines.push(mermaidText(`forEach, at most ${v.forEachMaxItems} items`));
  if (v.join) lines.push('join: after the barrier');
  if (v.retry !== undefined) {
    lines.push(mermaidText(`retry: ${v.retry.attempts} tries, backoff ${ms(v.retry.backoffMs)}`));
  }
  if (v.timeoutMs !== undefined) lines.push(mermaidText(`timeout: ${ms(v.timeoutMs)} per try`));
  return lines.join('<br/>');
}

/** Renders the shape (deterministic: the same shape gives the same text). */
export function flowMermaid(shape: FlowShape): string {
  const ids = new Map(shape.vertices.map((v, i) => [v.id, `v${i}`] as const));
  const id = (vertex: string): string => ids.get(vertex) ?? 'END';
  const out = ['flowchart TD', `  %% ${mermaidText(`${shape.name}@${shape.version}`)}`, '  START(["START"])'];
  const forEach: string[] = [];
  const joins: string[] = [];
  shape.vertices.forEach((v, i) => {
    const label = labelOf(v, shape.edges.filter((e) => e.from === v.id && e.kind === 'static').length);
    out.push(v.forEachMaxItems === undefined ? `  v${i}["${label}"]` : `  v${i}[["${label}"]]`);
    if (v.forEachMaxItems !== undefined) forEach.push(`v${i}`);
    if (v.join) joins.push(`v${i}`);
  });
  const decisions = shape.vertices.filter((v) =>
    shape.edges.some((e) => e.from === v.id && e.kind === 'conditional' && e.to === null),
  );
  decisions.forEach((v) => out.push(`  d${shape.vertices.indexOf(v)}{"decision"}`));
  if (shape.vertices.some((v) => v.end)) out.push('  END(["END"])');
  const links = [`  START --> ${id(shape.start)}`];
  const errorLinks: number[] = [];
  for (const e of shape.edges) {
    if (e.kind === 'static') links.push(`  ${id(e.from)} --> ${id(e.to ?? '')}`);
    else if (e.kind === 'conditional') {
      const to = e.to === null ? `d${shape.vertices.findIndex((v) => v.id === e.from)}` : id(e.to);
      links.push(`  ${id(e.from)} -.-> ${to}`);
    } else {
      errorLinks.push(links.length);
      links.push(`  ${id(e.from)} ==>|"on error"| ${id(e.to ?? '')}`);
    }
  }
  for (const v of shape.vertices) if (v.end) links.push(`  ${id(v.id)} --> END`);
  out.push(...links);
  if (errorLinks.length > 0) out.push(`  linkStyle ${errorLinks.join(',')} stroke:#c62828,color:#c62828`);
  if (forEach.length > 0) out.push('  classDef forEach stroke-dasharray:4 2', `  class ${forEach.join(',')} forEach`);
  if (joins.length > 0) out.push('  classDef join stroke-width:3px', `  class ${joins.join(',')} join`);
  if (decisions.length > 0) {
    out.push(
      '  classDef decision fill:#fff8e1',
      `  class ${decisions.map((v) => `d${shape.vertices.indexOf(v)}`).join(',')} decision`,
    );
  }
  return `${out.join('\n')}\n`;
}
