/**
 * Workflow structure: setup-workspace first and as start, unique kebab step ids, resolvable references, `next` xor
 * `branches` with existing targets, closed branch predicates over declared confirmed-state fields, reachability.
 */
import { isJsonObject } from '../../core/index.js';
import { AssetKind, Harness } from '../model/release.js';
import type { StepDefinition, WorkflowDefinition } from '../model/release.js';
import { isKebabId } from '../model/naming.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import type { Path } from '../problems.js';
import type { Checker } from './context.js';

export const SETUP_STEP = 'setup-workspace';

/** Checks the structure, references and transitions of every workflow. */
export function checkWorkflows(c: Checker): void {
  for (const w of c.content.workflows) checkWorkflow(c, w, entryKey('workflow', w.id, w.version));
}

function checkWorkflow(c: Checker, w: WorkflowDefinition, key: string): void {
  if (w.steps.length === 0)
    c.report(key, ['steps'], ProblemCode.FirstStepNotSetup, `a workflow starts with a ${SETUP_STEP} step`);
  else if (w.steps[0]?.id !== SETUP_STEP) {
    c.report(key, ['steps', 0, 'id'], ProblemCode.FirstStepNotSetup, `the first step must be ${SETUP_STEP}`);
  }
  if (w.start_step !== SETUP_STEP)
    c.report(key, ['start_step'], ProblemCode.StartStepInvalid, `start_step must be ${SETUP_STEP}`);
  for (const word of ['required_host_capabilities', 'required_validator_capabilities'] as const) {
    const list: readonly string[] = w[word];
    const dup = list.find((x, i) => list.indexOf(x) !== i);
    if (dup !== undefined) c.report(key, [word], ProblemCode.InvalidValue, `${quoted(dup)} is listed twice`);
  }
  for (const harness of Object.values(Harness)) {
    const ref = w.host_adapters[harness];
    if (ref === undefined) continue;
    const adapter = c.needAsset(key, ['host_adapters', harness], AssetKind.HostAdapter, ref);
    if (adapter?.adapter !== undefined && !adapter.adapter.compatible_harnesses.includes(harness)) {
      c.report(
        key,
        ['host_adapters', harness],
        ProblemCode.AdapterHarnessIncompatible,
        `adapter ${quoted(ref.id)} does not list ${harness} as compatible`,
      );
    }
  }
  const schema = c.needSchema(key, ['confirmed_state_schema'], w.confirmed_state_schema);
  const declared = schema?.schema.properties;
  const props = schema === undefined ? undefined : isJsonObject(declared) ? Object.keys(declared) : [];
  const ids = new Set<string>();
  w.steps.forEach((step, i) => {
    const path = ['steps', i];
    if (!isKebabId(step.id))
      c.report(key, [...path, 'id'], ProblemCode.InvalidId, `step id ${quoted(step.id)} must be kebab-case`);
    if (ids.has(step.id))
      c.report(key, [...path, 'id'], ProblemCode.DuplicateStep, `step ${quoted(step.id)} is defined twice`);
    ids.add(step.id);
  });
  w.steps.forEach((step, i) => checkStep(c, key, ['steps', i], step, ids, props));
  checkReachable(c, key, w, ids);
}

function checkStep(
  c: Checker,
  key: string,
  path: Path,
  step: StepDefinition,
  ids: ReadonlySet<string>,
  props: string[] | undefined,
): void {
  c.needAsset(key, [...path, 'instruction'], AssetKind.Instruction, step.instruction);
  const seen = new Set<string>();
  step.host_assets.forEach((ref, j) => {
    const at = [...path, 'host_assets', j];
    c.needAsset(key, at, ref.kind, ref);
    const id = `${ref.kind}/${ref.id}`;
    if (seen.has(id)) c.report(key, at, ProblemCode.DuplicateEntry, `host asset ${quoted(id)} is listed twice`);
    seen.add(id);
  });
  if (step.next !== undefined && step.branches !== undefined) {
    c.report(key, [...path, 'branches'], ProblemCode.NextAndBranches, 'a step has either next or branches, not both');
  }
  if (step.next !== undefined && !ids.has(step.next)) {
    c.report(key, [...path, 'next'], ProblemCode.TargetMissing, `next step ${quoted(step.next)} does not exist`);
  }
  const known = (field: string): boolean => props === undefined || props.includes(field);
  const branches = step.branches ?? [];
  if (step.branches !== undefined && branches.length === 0)
    c.report(key, [...path, 'branches'], ProblemCode.InvalidValue, 'branches must not be empty');
  const field = branches[0]?.when.field;
  const taken: (string | number | boolean)[] = [];
  branches.forEach((branch, j) => {
    const at = [...path, 'branches', j];
    if (!ids.has(branch.to))
      c.report(key, [...at, 'to'], ProblemCode.TargetMissing, `branch target ${quoted(branch.to)} does not exist`);
    if (!known(branch.when.field)) {
      c.report(
        key,
        [...at, 'when', 'field'],
        ProblemCode.BranchFieldUndeclared,
        `${quoted(branch.when.field)} is not a top-level property of the confirmed-state schema`,
      );
    }
    if (branch.when.field !== field) {
      c.report(
        key,
        [...at, 'when', 'field'],
        ProblemCode.BranchFieldsMixed,
        `all branches of a step test one field (${quoted(field)})`,
      );
      return;
    }
    const values = 'equals' in branch.when ? [branch.when.equals] : branch.when.in;
    const overlap = values.find((v) => taken.includes(v));
    if (overlap !== undefined)
      c.report(
        key,
        [...at, 'when'],
        ProblemCode.BranchOverlap,
        `value ${quoted(overlap)} already selects an earlier branch`,
      );
    taken.push(...values);
  });
  const q = step.question;
  if (q === undefined) return;
  if (!known(q.field)) {
    c.report(
      key,
      [...path, 'question', 'field'],
      ProblemCode.QuestionFieldUndeclared,
      `${quoted(q.field)} is not a top-level property of the confirmed-state schema`,
    );
  }
  if (branches.length === 0)
    c.report(
      key,
      [...path, 'question'],
      ProblemCode.QuestionWithoutBranches,
      'a question belongs to a step with branches',
    );
  else if (field !== undefined && q.field !== field) {
    c.report(
      key,
      [...path, 'question', 'field'],
      ProblemCode.BranchFieldsMixed,
      `the question asks for ${quoted(q.field)} but the branches test ${quoted(field)}`,
    );
  }
}

function checkReachable(c: Checker, key: string, w: WorkflowDefinition, ids: ReadonlySet<string>): void {
  const byId = new Map(w.steps.map((s) => [s.id, s] as const));
  const reached = new Set<string>();
  const queue = ids.has(w.start_step) ? [w.start_step] : [];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (reached.has(id)) continue;
    reached.add(id);
    const step = byId.get(id);
    for (const to of [step?.next, ...(step?.branches ?? []).map((b) => b.to)]) {
      if (to !== undefined && ids.has(to)) queue.push(to);
    }
  }
  if (reached.size === 0) return;
  w.steps.forEach((step, i) => {
    if (!reached.has(step.id))
      c.report(
        key,
        ['steps', i, 'id'],
        ProblemCode.StepUnreachable,
        `step ${quoted(step.id)} cannot be reached from ${w.start_step}`,
      );
  });
}
