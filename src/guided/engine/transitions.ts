/**
 * Transitions out of a step: a linear `next`, closed branch predicates over top-level confirmed-state fields, or
 * nothing (terminal). While a predicate field is missing the step asks its one question; two matching branches are a
 * protocol error (authoring validation should already have made that impossible).
 */
import type { JsonObject, JsonValue } from '../../core/index.js';
import type { Branch, StepDefinition } from '../../registry/model.js';
import { ProtocolReason, protocolError } from '../errors.js';
import type { WorkflowIndex } from '../scope.js';

export type Transition =
  | { readonly kind: 'step'; readonly stepId: string }
  | { readonly kind: 'question'; readonly question: JsonObject }
  | { readonly kind: 'terminal' };

type Scalar = string | number | boolean;

function matches(branch: Branch, value: JsonValue): boolean {
  const when = branch.when;
  return 'equals' in when ? value === when.equals : when.in.includes(value as Scalar);
}

function has(state: Readonly<Record<string, JsonValue>>, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(state, field);
}

/** The question for `field`: the step's own when it asks about that field, else one built from the branch values. */
function questionFor(step: StepDefinition, field: string): JsonObject {
  const own = step.question;
  if (own !== undefined && own.field === field) {
    return {
      field,
      prompt: own.prompt,
      options: (own.options ?? []).map((o) => ({ value: o.value, label: o.label })),
    };
  }
  const values: Scalar[] = [];
  for (const b of step.branches ?? []) {
    if (b.when.field !== field) continue;
    for (const v of 'equals' in b.when ? [b.when.equals] : b.when.in) if (!values.includes(v)) values.push(v);
  }
  return {
    field,
    prompt: `Confirm a value for ${field}.`,
    options: values.map((value) => ({ value, label: String(value) })),
  };
}

/** Where the workflow goes after `step`, given the confirmed state. */
export function nextTransition(step: StepDefinition, state: Readonly<Record<string, JsonValue>>): Transition {
  if (step.next !== undefined) return { kind: 'step', stepId: step.next };
  const branches = step.branches ?? [];
  if (branches.length === 0) return { kind: 'terminal' };
  const missing = branches.find((b) => !has(state, b.when.field));
  if (missing !== undefined) return { kind: 'question', question: questionFor(step, missing.when.field) };
  const hits = branches.filter((b) => matches(b, state[b.when.field] as JsonValue));
  if (hits.length > 1) throw protocolError(ProtocolReason.BranchAmbiguous, 'more than one branch matches');
  const hit = hits[0];
  if (hit !== undefined) return { kind: 'step', stepId: hit.to };
  // A confirmed value no branch accepts: ask again (the participant must confirm a value a branch accepts).
  return { kind: 'question', question: questionFor(step, (branches[0] as Branch).when.field) };
}

/** A step is gated when it produces artifacts, has validators, or is setup-workspace (host attestation). */
export function isGated(index: WorkflowIndex, step: StepDefinition): boolean {
  return step.id === index.workflow.start_step || step.outputs.length > 0 || step.validators.length > 0;
}
