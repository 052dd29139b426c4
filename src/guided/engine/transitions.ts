/**
 * Transitions out of a step: a linear `next`, closed branch predicates over top-level confirmed-state fields, or
 * nothing (terminal). While a predicate field is missing the step asks its one question; two matching branches are a
 * protocol error (authoring validation should already have made that impossible). Entering a route whose validators need
 * a capability the host lacks is blocked where the route is chosen.
 */
import type { JsonObject, JsonValue } from '../../core/index.js';
import type { Branch, StepDefinition, ValidatorCapability } from '../../registry/model/index.js';
import { BlockerCode } from '../codes.js';
import { ProtocolReason, protocolError } from '../errors.js';
import { lackedCapabilities, routeValidatorCapabilities } from '../host/route-needs.js';
import type { Blocker } from '../outcomes.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';

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
export function questionFor(step: StepDefinition, field: string): JsonObject {
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

/**
 * The capability blockers for entering `target` (what every route from there needs that the host's bound validator
 * capabilities lack). Only a branch can meet one: a start asks for what every route needs, and a linear successor needs
 * no more than the step before it.
 */
export function entryBlockers(
  scope: ReleaseScope,
  index: WorkflowIndex,
  target: string,
  have: readonly ValidatorCapability[],
): Blocker[] {
  return lackedCapabilities(routeValidatorCapabilities(scope, index, target), have).map((capability) => ({
    code: BlockerCode.MissingValidatorCapability,
    capability,
  }));
}

/** The branch field that routed `step` to `target` (undefined for a linear successor). */
export function branchFieldTo(step: StepDefinition, target: string): string | undefined {
  return (step.branches ?? []).find((b) => b.to === target)?.when.field;
}
