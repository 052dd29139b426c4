/**
 * A workflow as a graph: one node per step (gated steps marked, the step question on its node), linear edges, branch
 * edges labelled with their predicate, and terminal steps leading to END. `workflowGraph` is the structure (the web
 * console draws it); `workflowMermaid` prints the same structure as a Mermaid flowchart.
 */
import { mermaidText } from '../core/mermaid-text.js';
import type { BranchPredicate, StepDefinition, WorkflowDefinition } from './model/release.js';

export { mermaidText };

/** One step of the drawn workflow. */
export interface WorkflowGraphNode {
  readonly id: string;
  readonly title: string;
  /** The step has outputs or validators: the workflow moves on only once they hold receipts. */
  readonly gated: boolean;
  readonly outputs: number;
  readonly validators: number;
  /** The prompt of the one question the step asks while its branch field is missing. */
  readonly question?: string;
  /** The step chooses its successor with branch predicates. */
  readonly branching: boolean;
}

/** A transition; `to` is null for the end of the workflow, `label` the branch predicate (`field = value`). */
export interface WorkflowGraphEdge {
  readonly from: string;
  readonly to: string | null;
  readonly label?: string;
}

export interface WorkflowGraph {
  readonly nodes: readonly WorkflowGraphNode[];
  readonly edges: readonly WorkflowGraphEdge[];
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

function nodeOf(step: StepDefinition): WorkflowGraphNode {
  const node: WorkflowGraphNode = {
    id: step.id,
    title: step.title,
    gated: step.outputs.length > 0 || step.validators.length > 0,
    outputs: step.outputs.length,
    validators: step.validators.length,
    branching: step.branches !== undefined,
  };
  return step.question === undefined ? node : { ...node, question: step.question.prompt };
}

/** The workflow's steps and transitions in step order (deterministic: same workflow → same graph). */
export function workflowGraph(workflow: WorkflowDefinition): WorkflowGraph {
  const steps = new Set(workflow.steps.map((s) => s.id));
  const target = (id: string): string | null => (steps.has(id) ? id : null);
  const edges: WorkflowGraphEdge[] = [];
  for (const step of workflow.steps) {
    if (step.next !== undefined) edges.push({ from: step.id, to: target(step.next) });
    else if (step.branches !== undefined && step.branches.length > 0) {
      for (const b of step.branches) edges.push({ from: step.id, to: target(b.to), label: predicateLabel(b.when) });
    } else edges.push({ from: step.id, to: null });
  }
  return { nodes: workflow.steps.map(nodeOf), edges };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function nodeLabel(node: WorkflowGraphNode): string {
  const lines = [mermaidText(node.title)];
  if (node.gated)
    lines.push(mermaidText(`gated (${count(node.outputs, 'output')}, ${count(node.validators, 'validator')})`));
  if (node.question !== undefined)
    lines.push(mermaidText(`? ${node.question.length > 80 ? `${node.question.slice(0, 77)}...` : node.question}`));
  return lines.join('<br/>');
}

/**
 * Renders `workflow` as a `flowchart TD` (deterministic: same workflow → same text). Node ids are `s0`, `s1`, … in
 * step order so no step id can collide with Mermaid keywords.
 */
export function workflowMermaid(workflow: WorkflowDefinition): string {
  const graph = workflowGraph(workflow);
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `s${i}`] as const));
  const out = ['flowchart TD'];
  const gated: string[] = [];
  graph.nodes.forEach((node, i) => {
    const label = nodeLabel(node);
    out.push(node.branching ? `  s${i}{"${label}"}` : `  s${i}["${label}"]`);
    if (node.gated) gated.push(`s${i}`);
  });
  const edges = graph.edges.map((e) => {
    const to = e.to === null ? 'END' : (ids.get(e.to) ?? 'END');
    const label = e.label === undefined ? '' : `|"${mermaidText(e.label)}"|`;
    return `  ${ids.get(e.from) ?? ''} -->${label} ${to}`;
  });
  if (edges.some((e) => e.endsWith(' END'))) out.push('  END(["END"])');
  out.push(...edges);
  if (gated.length > 0) {
    out.push('  classDef gated stroke-width:3px');
    out.push(`  class ${gated.join(',')} gated`);
  }
  return `${out.join('\n')}\n`;
}
