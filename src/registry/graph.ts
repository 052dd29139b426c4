/**
 * A workflow as a Mermaid flowchart: one node per step (gated steps marked), linear edges, branch edges labelled
 * with their predicate, the step question on the branching node, and terminal steps leading to END.
 */
import type { BranchPredicate, StepDefinition, WorkflowDefinition } from './model.js';

const SAFE = /[A-Za-z0-9 .,:_\-()/?!'=+*@[\]]/;

/** Escapes label text for a quoted Mermaid label: anything outside a small safe set becomes `#<code>;`. */
export function mermaidText(text: string): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    out += SAFE.test(ch) ? ch : `#${ch.codePointAt(0) ?? 63};`;
  }
  return out;
}

function literal(value: string | number | boolean): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `field = value` or `field in [a, b]`. */
export function predicateLabel(when: BranchPredicate): string {
  return 'equals' in when
    ? `${when.field} = ${literal(when.equals)}`
    : `${when.field} in [${when.in.map(literal).join(', ')}]`;
}

function isGated(step: StepDefinition): boolean {
  return step.outputs.length > 0 || step.validators.length > 0;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function nodeLabel(step: StepDefinition): string {
  const lines = [mermaidText(step.title)];
  if (isGated(step))
    lines.push(
      mermaidText(`gated (${count(step.outputs.length, 'output')}, ${count(step.validators.length, 'validator')})`),
    );
  if (step.question !== undefined)
    lines.push(
      mermaidText(
        `? ${step.question.prompt.length > 80 ? `${step.question.prompt.slice(0, 77)}...` : step.question.prompt}`,
      ),
    );
  return lines.join('<br/>');
}

/**
 * Renders `workflow` as a `flowchart TD` (deterministic: same workflow → same text). Node ids are `s0`, `s1`, … in
 * step order so no step id can collide with Mermaid keywords.
 */
export function workflowMermaid(workflow: WorkflowDefinition): string {
  const ids = new Map(workflow.steps.map((s, i) => [s.id, `s${i}`] as const));
  const out = ['flowchart TD'];
  const gated: string[] = [];
  workflow.steps.forEach((step, i) => {
    const label = nodeLabel(step);
    out.push(step.branches !== undefined ? `  s${i}{"${label}"}` : `  s${i}["${label}"]`);
    if (isGated(step)) gated.push(`s${i}`);
  });
  const edges: string[] = [];
  workflow.steps.forEach((step, i) => {
    const from = `s${i}`;
    if (step.next !== undefined) edges.push(`  ${from} --> ${ids.get(step.next) ?? 'END'}`);
    else if (step.branches !== undefined && step.branches.length > 0) {
      for (const branch of step.branches) {
        edges.push(`  ${from} -->|"${mermaidText(predicateLabel(branch.when))}"| ${ids.get(branch.to) ?? 'END'}`);
      }
    } else edges.push(`  ${from} --> END`);
  });
  if (edges.some((e) => e.endsWith(' END'))) out.push('  END(["END"])');
  out.push(...edges);
  if (gated.length > 0) {
    out.push('  classDef gated stroke-width:3px');
    out.push(`  class ${gated.join(',')} gated`);
  }
  return `${out.join('\n')}\n`;
}
