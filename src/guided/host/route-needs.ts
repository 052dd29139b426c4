/**
 * Which validator capabilities a host needs from a step onward. A step is unavoidable from `from` when every path from
 * `from` to a terminal step passes through it; the validators of unavoidable steps (optional ones included: prepare
 * asks for the capabilities of every validator of a step) are what every route from there needs. start_workflow asks
 * for what every route from the start step needs; a branch asks for what the chosen route needs before entering it,
 * so a host lacking a capability only one route's validators use can still take the other route.
 */
import type { StepDefinition, ValidatorCapability } from '../../registry/model/index.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';

function successors(step: StepDefinition): string[] {
  return step.next !== undefined ? [step.next] : (step.branches ?? []).map((b) => b.to);
}

function isTerminal(step: StepDefinition): boolean {
  return successors(step).length === 0;
}

/** Whether a terminal step is reachable from `from` without passing through `avoid`. */
function reachesTerminal(index: WorkflowIndex, from: string, avoid: string | undefined): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === avoid || seen.has(id)) continue;
    seen.add(id);
    const step = index.steps.get(id);
    if (step === undefined) continue;
    if (isTerminal(step)) return true;
    stack.push(...successors(step));
  }
  return false;
}

function reachable(index: WorkflowIndex, from: string): string[] {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const step = index.steps.get(id);
    if (step !== undefined) stack.push(...successors(step));
  }
  return [...seen];
}

/**
 * Steps on every path from `from` to a terminal step (`from` itself included). When no terminal is reachable at all,
 * every reachable step counts (fail closed: such a workflow cannot complete anyway).
 */
export function unavoidableSteps(index: WorkflowIndex, from: string): string[] {
  const all = reachable(index, from);
  if (!reachesTerminal(index, from, undefined)) return all;
  return all.filter((id) => id === from || !reachesTerminal(index, from, id));
}

/** Capabilities computed per release scope and workflow, keyed by the step they start from. */
const computed = new WeakMap<ReleaseScope, Map<string, ReadonlySet<ValidatorCapability>>>();

/** Validator capabilities every route from step `from` needs (the validators of its unavoidable steps). */
export function routeValidatorCapabilities(
  scope: ReleaseScope,
  index: WorkflowIndex,
  from: string,
): ReadonlySet<ValidatorCapability> {
  let byStep = computed.get(scope);
  if (byStep === undefined) {
    byStep = new Map();
    computed.set(scope, byStep);
  }
  const key = `${index.workflow.id}|${index.workflow.version}|${from}`;
  let needed = byStep.get(key);
  if (needed === undefined) {
    const set = new Set<ValidatorCapability>();
    for (const id of unavoidableSteps(index, from)) {
      for (const ref of index.steps.get(id)?.validators ?? []) {
        for (const c of scope.validator(ref.id, ref.version)?.required_capabilities ?? []) set.add(c);
      }
    }
    needed = set;
    byStep.set(key, needed);
  }
  return needed;
}

/** The capabilities from `needed` that the host's bound set lacks, sorted. */
export function lackedCapabilities(
  needed: ReadonlySet<ValidatorCapability>,
  have: readonly ValidatorCapability[],
): ValidatorCapability[] {
  return [...needed].filter((c) => !have.includes(c)).sort();
}
