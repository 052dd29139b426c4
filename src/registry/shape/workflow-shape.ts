/** Closed shape of a workflow definition (source YAML or built release entry). */
import type { JsonValue } from '../../core/index.js';
import { ArtifactMediaType, Harness, HostCapability, ValidatorCapability, WritePolicy } from '../model/release.js';
import type {
  ArtifactDeclaration,
  Branch,
  BranchPredicate,
  Ref,
  StepDefinition,
  StepQuestion,
  WorkflowDefinition,
} from '../model/release.js';
import { ProblemCode } from '../problems.js';
import type { Path } from '../problems.js';
import { identityKeys, readHostAssetRef, readIdentity, readRef } from './common.js';
import type { Identity } from './common.js';
import { formatPath } from './reader.js';
import type { ShapeReader } from './reader.js';

const HARNESSES = Object.values(Harness);
const LISTS = ['entry_aliases', 'required_host_capabilities', 'required_validator_capabilities'] as const;
const STEP_LISTS = ['host_assets', 'inputs', 'outputs', 'validators'] as const;

/** Decodes a workflow; in a source file (identity given) lists, host_adapters and start_step may be omitted. */
export function readWorkflow(r: ShapeReader, value: unknown, identity: Identity): WorkflowDefinition | undefined {
  const mark = r.mark();
  const ids = identityKeys(identity);
  const defaults = ['host_adapters', 'start_step', ...LISTS];
  const o = r.object(
    value,
    [],
    [...ids.required, 'title', 'description', 'confirmed_state_schema', 'steps', ...(identity ? [] : defaults)],
    [...ids.optional, ...(identity ? defaults : [])],
  );
  const { id, version } = readIdentity(r, o, identity);
  const workflow: WorkflowDefinition = {
    id,
    version,
    title: r.string(o.title, ['title'], { nonEmpty: true, max: 200 }),
    description: r.string(o.description, ['description'], { nonEmpty: true, max: 4000 }),
    entry_aliases: r.strings(o.entry_aliases, ['entry_aliases']),
    confirmed_state_schema: readRef(r, o.confirmed_state_schema, ['confirmed_state_schema']),
    required_host_capabilities: r.words(
      o.required_host_capabilities,
      ['required_host_capabilities'],
      Object.values(HostCapability),
      'host capability',
    ),
    required_validator_capabilities: r.words(
      o.required_validator_capabilities,
      ['required_validator_capabilities'],
      Object.values(ValidatorCapability),
      'validator capability',
    ),
    host_adapters: readHostAdapters(r, o.host_adapters, ['host_adapters']),
    start_step: o.start_step === undefined ? 'setup-workspace' : r.string(o.start_step, ['start_step']),
    steps: r.array(o.steps, ['steps'], (v, p) => readStep(r, v, p, identity)),
  };
  return r.failedSince(mark) ? undefined : workflow;
}

function readHostAdapters(r: ShapeReader, value: unknown, path: Path): Partial<Record<Harness, Ref>> {
  const o = r.object(value, path, [], HARNESSES);
  const out: Partial<Record<Harness, Ref>> = {};
  for (const harness of HARNESSES) {
    const ref = o[harness];
    if (ref !== undefined) out[harness] = readRef(r, ref, [...path, harness]);
  }
  return out;
}

function readStep(r: ShapeReader, value: JsonValue, path: Path, identity: Identity): StepDefinition {
  const lists =
    identity === undefined ? { required: [...STEP_LISTS], optional: [] } : { required: [], optional: [...STEP_LISTS] };
  const o = r.object(
    value,
    path,
    ['id', 'title', 'instruction', ...lists.required],
    [...lists.optional, 'next', 'branches', 'question'],
  );
  const step: {
    -readonly [K in keyof StepDefinition]: StepDefinition[K];
  } = {
    id: r.string(o.id, [...path, 'id']),
    title: r.string(o.title, [...path, 'title'], { nonEmpty: true, max: 200 }),
    instruction: readRef(r, o.instruction, [...path, 'instruction']),
    host_assets: r.array(o.host_assets, [...path, 'host_assets'], (v, p) => readHostAssetRef(r, v, p)),
    inputs: r.strings(o.inputs, [...path, 'inputs']),
    outputs: r.array(o.outputs, [...path, 'outputs'], (v, p) => readArtifact(r, v, p)),
    validators: r.array(o.validators, [...path, 'validators'], (v, p) => readRef(r, v, p)),
  };
  if (o.next !== undefined) step.next = r.string(o.next, [...path, 'next']);
  if (o.branches !== undefined)
    step.branches = r.array(o.branches, [...path, 'branches'], (v, p) => readBranch(r, v, p));
  if (o.question !== undefined) step.question = readQuestion(r, o.question, [...path, 'question']);
  return step;
}

function readArtifact(r: ShapeReader, value: JsonValue, path: Path): ArtifactDeclaration {
  const o = r.object(value, path, ['artifact_id', 'path', 'media_type', 'max_bytes', 'write_policy'], ['schema']);
  const artifact: { -readonly [K in keyof ArtifactDeclaration]: ArtifactDeclaration[K] } = {
    artifact_id: r.string(o.artifact_id, [...path, 'artifact_id']),
    path: r.string(o.path, [...path, 'path']),
    media_type: r.oneOf(o.media_type, [...path, 'media_type'], Object.values(ArtifactMediaType), 'media type'),
    max_bytes: r.integer(o.max_bytes, [...path, 'max_bytes']),
    write_policy: r.oneOf(o.write_policy, [...path, 'write_policy'], Object.values(WritePolicy), 'write policy'),
  };
  if (o.schema !== undefined) artifact.schema = readRef(r, o.schema, [...path, 'schema']);
  return artifact;
}

function readBranch(r: ShapeReader, value: JsonValue, path: Path): Branch {
  const o = r.object(value, path, ['when', 'to']);
  return { when: readPredicate(r, o.when, [...path, 'when']), to: r.string(o.to, [...path, 'to']) };
}

function readPredicate(r: ShapeReader, value: unknown, path: Path): BranchPredicate {
  const o = r.object(value, path, ['field'], ['equals', 'in']);
  const field = r.string(o.field, [...path, 'field']);
  if ((o.equals === undefined) === (o.in === undefined)) {
    if (value !== undefined) {
      r.report(path, ProblemCode.InvalidValue, `${formatPath(path)} needs exactly one of "equals" or "in"`);
    }
    return { field, equals: '' };
  }
  if (o.equals !== undefined) return { field, equals: r.scalar(o.equals, [...path, 'equals']) };
  const values = r.array(o.in, [...path, 'in'], (v, p) => r.scalar(v, p));
  if (Array.isArray(o.in) && values.length === 0) {
    r.report([...path, 'in'], ProblemCode.InvalidValue, `${formatPath([...path, 'in'])} must not be empty`);
  }
  return { field, in: values };
}

function readQuestion(r: ShapeReader, value: JsonValue, path: Path): StepQuestion {
  const o = r.object(value, path, ['field', 'prompt'], ['options']);
  const question: { -readonly [K in keyof StepQuestion]: StepQuestion[K] } = {
    field: r.string(o.field, [...path, 'field']),
    prompt: r.string(o.prompt, [...path, 'prompt'], { nonEmpty: true, max: 2000 }),
  };
  if (o.options !== undefined) {
    question.options = r.array(o.options, [...path, 'options'], (v, p) => {
      const opt = r.object(v, p, ['value', 'label']);
      return {
        value: r.scalar(opt.value, [...p, 'value']),
        label: r.string(opt.label, [...p, 'label'], { nonEmpty: true, max: 200 }),
      };
    });
  }
  return question;
}
