/**
 * A guided session at a glance. The session file's checkpoint and confirmed state go through
 * `rimthan.continue_workflow` without a state change, exactly as a harness resuming the work would call it: the
 * tools' own verification (signature, envelope, pinned release, confirmed-state digest) decides whether anything is
 * shown. The answer holds release content, digests, step ids and confirmation times; never a confirmed-state value
 * (except a branch literal the release itself defines), an artifact body, a finding or a token.
 */
import { isJsonObject } from '../../core/index.js';
import type { JsonObject, JsonValue } from '../../core/index.js';
import { GuidedErrorCode, GuidedToolName, ProgressStatus, refKey } from '../../guided/index.js';
import type { Release, StepDefinition, WorkflowDefinition } from '../../registry/index.js';
import type { NextCallView, QuestionView, SessionAnswer } from '../api-types.js';
import type { GuidedCall } from './guided-call.js';
import { findWorkflow, graphView } from '../releases/release-views.js';
import type { SessionFile } from './session-file.js';

const obj = (v: JsonValue | undefined): JsonObject => (isJsonObject(v) ? v : {});
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

function emptyAnswer(problem: SessionAnswer['problem']): SessionAnswer {
  return {
    verified: false,
    problem,
    release: null,
    workflow: null,
    current_step: null,
    sequence: null,
    issued_at: null,
    host: null,
    graph: null,
    receipts: { artifacts: [], validators: [] },
    done_steps: [],
    next: null,
    blockers: [],
    confirmed_fields: [],
  };
}

/** Steps whose outputs all hold receipts and whose required validators all hold pass receipts. */
function doneSteps(
  release: Release,
  workflow: WorkflowDefinition,
  artifacts: JsonObject,
  validators: JsonObject,
): string[] {
  const required = (step: StepDefinition): string[] =>
    step.validators
      .filter((ref) => release.validators.find((v) => v.id === ref.id && v.version === ref.version)?.required === true)
      .map((ref) => refKey(ref.id, ref.version));
  return workflow.steps
    .filter((s) => s.outputs.length > 0 || required(s).length > 0)
    .filter((s) => s.outputs.every((o) => Object.hasOwn(artifacts, o.artifact_id)))
    .filter((s) => required(s).every((key) => Object.hasOwn(validators, key)))
    .map((s) => s.id);
}

/** Branch literals of the workflow per field: the only confirmed-state values the console may show. */
function branchLiterals(workflow: WorkflowDefinition): Map<string, (string | number | boolean)[]> {
  const literals = new Map<string, (string | number | boolean)[]>();
  for (const step of workflow.steps) {
    for (const b of step.branches ?? []) {
      const list = literals.get(b.when.field) ?? [];
      list.push(...('equals' in b.when ? [b.when.equals] : b.when.in));
      literals.set(b.when.field, list);
    }
  }
  return literals;
}

function confirmedFields(session: SessionFile, workflow: WorkflowDefinition): SessionAnswer['confirmed_fields'] {
  const state = obj(session.confirmed_state['state']);
  const confirmations = obj(session.confirmed_state['confirmations']);
  const literals = branchLiterals(workflow);
  return Object.keys(state)
    .sort()
    .map((field) => {
      const c = obj(confirmations[field]);
      const value = state[field];
      const shown =
        (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
        (literals.get(field) ?? []).includes(value);
      return {
        field,
        confirmed_by: str(c['confirmed_by']),
        confirmed_at: str(c['confirmed_at']),
        ...(shown ? { value } : {}),
      };
    });
}

function questionOf(value: JsonValue | undefined): QuestionView | null {
  if (!isJsonObject(value)) return null;
  const q = value;
  const options = Array.isArray(q['options']) ? q['options'] : [];
  return {
    field: str(q['field']),
    prompt: str(q['prompt']),
    options: options.map((o) => {
      const v = obj(o)['value'];
      return { value: typeof v === 'number' || typeof v === 'boolean' ? v : str(v), label: str(obj(o)['label']) };
    }),
  };
}

function nextCall(
  result: JsonObject,
  workflow: WorkflowDefinition,
  current: string,
  artifacts: JsonObject,
  validators: JsonObject,
): NextCallView {
  const status = str(result['status']);
  const payload = obj(result['step']);
  const stepOf = obj(payload['step']);
  const step = result['step'] === null ? null : { id: str(stepOf['id']), title: str(stepOf['title']) };
  const base = { status, step, missing_outputs: [], missing_validators: [], question: null };
  if (status === ProgressStatus.Completed) return { ...base, tool: null, summary: 'The workflow is completed.' };
  if (status === ProgressStatus.Blocked) {
    return { ...base, tool: GuidedToolName.ContinueWorkflow, summary: 'Blocked: resolve the blockers, then continue.' };
  }
  if (status === ProgressStatus.InputRequired) {
    const question = questionOf(result['question']);
    return {
      ...base,
      question,
      tool: GuidedToolName.ContinueWorkflow,
      summary: `Answer the question about "${question?.field ?? ''}" with a confirmed next_confirmed_state.`,
    };
  }
  if (step !== null && step.id !== current) {
    return {
      ...base,
      tool: GuidedToolName.ContinueWorkflow,
      summary: `Continue: the workflow moves on to "${step.title}".`,
    };
  }
  const definition = workflow.steps.find((s) => s.id === current);
  const outputs = (payload['outputs'] as JsonObject[] | undefined) ?? [];
  const stepValidators = (payload['validators'] as JsonObject[] | undefined) ?? [];
  const missing_outputs = outputs
    .filter((o) => !Object.hasOwn(artifacts, str(o['artifact_id'])))
    .map((o) => ({ artifact_id: str(o['artifact_id']), path: str(o['path']) }));
  const missing_validators = stepValidators
    .filter((v) => !Object.hasOwn(validators, refKey(str(v['validator_id']), str(v['validator_version']))))
    .map((v) => ({
      id: str(v['validator_id']),
      version: str(v['validator_version']),
      title: str(v['title']),
      required: v['required'] === true,
    }));
  return {
    ...base,
    missing_outputs,
    missing_validators,
    tool: GuidedToolName.PrepareStepValidation,
    summary:
      definition !== undefined && (definition.outputs.length > 0 || definition.validators.length > 0)
        ? `Write the outputs of "${step?.title ?? current}", then prepare_step_validation and submit the validators' reports.`
        : `Continue from "${step?.title ?? current}".`,
  };
}

function blockersOf(result: JsonObject): SessionAnswer['blockers'] {
  const list = Array.isArray(result['blockers']) ? result['blockers'] : [];
  return list.map((b) => {
    const o = obj(b);
    const detail = ['capability', 'field', 'path'].map((k) => str(o[k])).find((s) => s !== '') ?? '';
    const adapter = obj(o['expected_adapter']);
    return {
      code: str(o['code']),
      detail:
        detail !== '' ? detail : adapter['id'] === undefined ? '' : `${str(adapter['id'])}@${str(adapter['version'])}`,
    };
  });
}

/**
 * Inspects a session: the continue call verifies it; `release` loads the pinned release it verified against (for
 * titles and the graph). Never throws for a bad session; the problem is in the answer.
 */
export async function inspectSession(
  session: SessionFile,
  call: GuidedCall,
  release: (name: string) => Promise<Release | undefined>,
): Promise<SessionAnswer> {
  const outcome = await call(GuidedToolName.ContinueWorkflow, {
    checkpoint: session.checkpoint,
    confirmed_state: session.confirmed_state,
  });
  // Only a checkpoint the tools verified is read: a protocol error comes after verification, any other error before.
  if (!outcome.ok && outcome.error.code !== GuidedErrorCode.ProtocolError) return emptyAnswer(outcome.error);
  const checkpoint = session.checkpoint;
  const pinned = await release(str(checkpoint['registry_release']));
  const wf = obj(checkpoint['workflow']);
  const workflow = pinned === undefined ? undefined : findWorkflow(pinned, str(wf['id']), str(wf['version']));
  if (pinned === undefined || workflow === undefined) {
    return emptyAnswer({
      code: 'release_unavailable',
      message: 'the pinned release is no longer in the release store',
    });
  }
  const artifacts = obj(checkpoint['artifacts']);
  const validators = obj(checkpoint['validators']);
  const current = str(checkpoint['current_step']);
  const host = obj(checkpoint['host']);
  const owner = new Map(workflow.steps.flatMap((s) => s.outputs.map((o) => [o.artifact_id, s.id] as const)));
  return {
    verified: true,
    problem: outcome.ok ? null : outcome.error,
    release: pinned.release,
    workflow: { id: workflow.id, version: workflow.version, title: workflow.title },
    current_step: current,
    sequence: typeof checkpoint['sequence'] === 'number' ? checkpoint['sequence'] : null,
    issued_at: str(checkpoint['issued_at']),
    host: {
      harness: str(host['harness']),
      adapter: { id: str(host['adapter_id']), version: str(host['adapter_version']) },
      host_capabilities: (host['host_capabilities'] as string[] | undefined) ?? [],
      validator_capabilities: (host['validator_capabilities'] as string[] | undefined) ?? [],
    },
    graph: graphView(workflow),
    receipts: {
      artifacts: Object.keys(artifacts)
        .sort()
        .map((id) => ({ artifact_id: id, sha256: str(artifacts[id]), step: owner.get(id) ?? null })),
      validators: Object.keys(validators)
        .sort()
        .map((key) => ({
          key,
          outcome: str(obj(validators[key])['outcome']),
          input_sha256: str(obj(validators[key])['input_sha256']),
        })),
    },
    done_steps: doneSteps(pinned, workflow, artifacts, validators),
    next: outcome.ok ? nextCall(outcome.value, workflow, current, artifacts, validators) : null,
    blockers: outcome.ok ? blockersOf(outcome.value) : [],
    confirmed_fields: confirmedFields(session, workflow),
  };
}
