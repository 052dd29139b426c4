/**
 * The scripted model of a coding agent following a Rimthan guided workflow on a real host. Each request, it reads the
 * conversation the host sent (the person's task, its own earlier calls and what the host returned for them), finds the
 * latest Rimthan answer and does the next thing the protocol and the step's instruction ask: start, deliver the host
 * assets and attest them, confirm what the person said, write the step's outputs, digest them, prepare, run each
 * validator as a subagent, submit, repair after a failed report, answer the route question, and keep
 * `.rimthan/workflow-session.json` after every checkpoint. What the person confirms and answers, the artifacts it
 * writes (what the model would author) and what its validator subagents judge by come from its script (a research
 * scenario or a library route); every protocol decision comes from what the host showed it.
 */
import type { JsonObject, JsonValue } from '../../../../../src/core/index.js';
import { confirmedStateDigest } from '../../../../../src/participant/index.js';
import type { ScriptedModel } from '../model-endpoint.js';
import type { ModelCall, ModelTurn, Transcript } from '../transcript.js';
import { callsWithResults, toolPayload } from '../transcript.js';
import type { GuidedTool, HostVocabulary, ValidatorJob } from './host-vocabulary.js';
import type { GuidedScript } from './guided-script.js';
import { validatorOf, validatorPromptLines, validatorTurn } from './validator-agent.js';

export const SESSION_PATH = '.rimthan/workflow-session.json';
/** The artifact the first step of every packaged workflow writes: the host assets' delivery, attested. */
const WORKSPACE_MANIFEST = 'workspace-manifest';

interface Exchange {
  readonly index: number;
  readonly tool: GuidedTool;
  readonly args: Record<string, unknown>;
  readonly result: Obj | undefined;
  readonly error: string | undefined;
}

type Step = Obj & {
  step: { id: string };
  outputs: Obj[];
  validators: Obj[];
  host_assets: Obj[];
  host_adapter: Obj;
};

/** The model reads JSON loosely, as a model does; the server checks it. */
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => v as Obj;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

function exchangesOf(t: Transcript, host: HostVocabulary): Exchange[] {
  const out: Exchange[] = [];
  for (const { index, call, result } of callsWithResults(t)) {
    const tool = host.guidedToolOf(call.name);
    if (tool === undefined) continue;
    let parsed: Obj | undefined;
    let error: string | undefined;
    if (result !== undefined) {
      try {
        parsed = JSON.parse(toolPayload(result.text)) as Obj;
      } catch {
        error = result.text;
      }
      if (result.isError) error = result.text;
    }
    out.push({ index, tool, args: call.args, result: parsed, error });
  }
  return out;
}

/** The latest checkpoint and the confirmed state it binds (the one sent with it, as its digest says). */
function sessionOf(exchanges: readonly Exchange[]): { checkpoint: Obj; confirmed: Obj } | undefined {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i]!;
    const checkpoint = e.result?.['checkpoint'];
    if (checkpoint === null || checkpoint === undefined || typeof checkpoint !== 'object') continue;
    const candidates = [e.args['next_confirmed_state'], e.args['confirmed_state']].filter(
      (c): c is Obj => c !== undefined && c !== null,
    );
    const bound = obj(checkpoint)['confirmed_state_sha256'];
    const confirmed = candidates.find((c) => confirmedStateDigest(c as JsonObject) === bound);
    if (confirmed === undefined) throw new Error('no confirmed state the host showed matches the checkpoint');
    return { checkpoint: obj(checkpoint), confirmed };
  }
  return undefined;
}

/** Every step payload the host showed, oldest first. */
function stepPayloads(exchanges: readonly Exchange[]): Step[] {
  return exchanges
    .map((e) => e.result?.['step'])
    .filter((s): s is Obj => s !== null && s !== undefined && typeof s === 'object')
    .map((s) => s as Step);
}

export interface GuidedAgentOptions {
  readonly script: GuidedScript;
  readonly host: HostVocabulary;
  readonly now?: () => Date;
}

export function guidedAgent(options: GuidedAgentOptions): ScriptedModel {
  const { script, host } = options;
  const now = (): string => (options.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const confirmation = (): Obj => ({ confirmed_by: 'participant', confirmed_at: now() });

  function withFields(state: Obj, fields: Readonly<Record<string, JsonValue>>): Obj {
    const confirmations: Obj = { ...obj(state['confirmations']) };
    for (const field of Object.keys(fields)) confirmations[field] = confirmation();
    return { state: { ...obj(state['state']), ...fields }, confirmations };
  }

  function main(t: Transcript): ModelTurn {
    const root = host.workspaceRoot(t);
    const exchanges = exchangesOf(t, host);
    const toolName = (tool: GuidedTool): string => {
      const name = host.guidedToolName(t, tool);
      if (name === undefined) throw new Error(`the host no longer offers rimthan.${tool}`);
      return name;
    };

    if (exchanges.length === 0) {
      if (host.guidedToolName(t, 'start_workflow') === undefined) return { kind: 'calls', calls: [host.awaitTools(t)] };
      return {
        kind: 'calls',
        calls: [
          {
            name: toolName('start_workflow'),
            args: {
              workflow: script.workflow,
              confirmed_state: withFields({ state: {}, confirmations: {} }, script.startState),
              host: { ...host.declaration, repository_policy: { conflict: false } },
            },
          },
        ],
      };
    }
    const last = exchanges[exchanges.length - 1]!;
    if (last.error !== undefined) return stop(`Rimthan refused rimthan.${last.tool}: ${last.error}`);
    const r = last.result;
    if (r === undefined) throw new Error('the host did not return a Rimthan result');
    const session = sessionOf(exchanges);
    const status = String(r['status']);

    const writes = latestWrites(t, root);
    const sessionText =
      session === undefined
        ? undefined
        : `${JSON.stringify({ checkpoint: session.checkpoint, confirmed_state: session.confirmed }, null, 2)}\n`;
    const keepSession: ModelCall[] =
      sessionText !== undefined && writes.get(SESSION_PATH) !== sessionText
        ? [host.writeFile(root, SESSION_PATH, sessionText)]
        : [];
    function calls(next: readonly ModelCall[], text?: string): ModelTurn {
      return { kind: 'calls', calls: [...keepSession, ...next], ...(text === undefined ? {} : { text }) };
    }

    if (status === 'completed')
      return keepSession.length > 0 ? calls([]) : stop('The Rimthan workflow is complete; its records are written.');
    if (status === 'blocked') return stop(`Rimthan blocked the workflow: ${JSON.stringify(r['blockers'])}`);
    if (status === 'deterministic_validation_failed')
      return stop(`Rimthan's deterministic checks failed: ${JSON.stringify(r['failures'])}`);
    if (session === undefined) throw new Error(`a ${status} answer without a checkpoint`);
    const { checkpoint, confirmed } = session;
    const payloads = stepPayloads(exchanges);
    const stepId = String(checkpoint['current_step']);
    const step = [...payloads].reverse().find((p) => p.step.id === stepId);
    // Failed validations of this step so far: the model is repairing after each.
    const failures = exchanges.filter(
      (e) => e.result?.['status'] === 'validation_failed' && obj(e.result['checkpoint'])['current_step'] === stepId,
    ).length;
    // What the person confirms at this step and has not confirmed yet.
    const given = obj(confirmed['state']);
    const pending = Object.fromEntries(
      Object.entries(script.fieldsAt(stepId)).filter(([k, v]) => JSON.stringify(given[k]) !== JSON.stringify(v)),
    );

    const cont = (fields: Readonly<Record<string, JsonValue>> | undefined): ModelTurn =>
      calls([
        {
          name: toolName('continue_workflow'),
          args: {
            checkpoint,
            confirmed_state: confirmed,
            ...(fields === undefined ? {} : { next_confirmed_state: withFields(confirmed, fields) }),
          },
        },
      ]);

    if (status === 'input_required') {
      const field = String(obj(r['question'])['field']);
      const value = script.answer(stepId, field);
      if (value === undefined) return stop(`The workflow asks for ${field}, which the person has not given.`);
      return cont({ [field]: value });
    }

    if (status === 'ready_for_semantic_validation') {
      const validators = list(r['validators']);
      const submit = (reports: Obj[]): ModelTurn =>
        calls([
          {
            name: toolName('submit_step_validation'),
            args: { checkpoint, confirmed_state: confirmed, validation_bundle: r['validation_bundle'], reports },
          },
        ]);
      if (validators.length === 0) return submit([]);
      if (step === undefined) throw new Error(`no step payload for ${stepId}`);
      const jobs = validators.map((v) => ({
        validatorId: String(v['validator_id']),
        prompt: validatorPrompt(v, step, payloads, failures + 1),
      }));
      const progress = host.validatorProgress(t, last.index + 1, jobs);
      if (progress.kind === 'next') return calls(progress.calls, progress.text);
      return submit(validators.map((v) => bindReport(v, progress.answers.get(String(v['validator_id'])) ?? '')));
    }

    if (!['active', 'advanced', 'validation_failed'].includes(status))
      return stop(`Unexpected Rimthan status ${status}.`);
    if (step === undefined) throw new Error(`no step payload for ${stepId}`);
    const gated = step.outputs.length > 0 || step.validators.length > 0;
    const pendingFields = Object.keys(pending).length > 0 ? pending : undefined;
    if (!gated) return cont(pendingFields);
    // A gated step: first what the person confirms here, then its work.
    if (pendingFields !== undefined) return cont(pendingFields);

    // Write the outputs (the next draft after each failed validation), digest them, prepare.
    const artifactIds = step.outputs.map((o) => String(o['artifact_id']));
    if (status === 'validation_failed' && failures > script.repairs(stepId, artifactIds))
      return stop(
        `The validators still report findings after ${String(failures)} repairs: ${JSON.stringify(r['findings'])}`,
      );
    const setup = artifactIds.includes(WORKSPACE_MANIFEST);
    const files = setup
      ? [{ output: step.outputs[0]!, content: manifestText(step) }]
      : step.outputs.map((output) => {
          const content = script.draft(stepId, String(output['artifact_id']), failures);
          if (content === undefined) throw new Error(`the script has no draft of ${String(output['artifact_id'])}`);
          return { output, content };
        });
    const unwritten = files.filter((f) => writes.get(String(f.output['path'])) !== f.content);
    if (unwritten.length > 0)
      return calls(unwritten.map((f) => host.writeFile(root, String(f.output['path']), f.content)));

    const artifacts = files.map((f) => ({
      artifact_id: f.output['artifact_id'],
      media_type: f.output['media_type'],
      content: f.content,
      path: f.output['path'],
    }));
    const prepare = (attestation: Obj): ModelTurn =>
      calls([
        {
          name: toolName('prepare_step_validation'),
          args: {
            checkpoint,
            confirmed_state: confirmed,
            artifacts,
            repository_policy: { conflict: false },
            validator_capabilities: obj(checkpoint['host'])['validator_capabilities'],
            ...attestation,
          },
        },
      ]);
    if (setup) return prepare({ host_attestation: hostAttestation(step, checkpoint) });

    const paths = files.map((f) => String(f.output['path']));
    const digests = digestsAfterWrites(t, root, paths);
    if (digests === undefined) return calls([host.digest(root, paths)]);
    return prepare({
      output_attestation: {
        step_id: stepId,
        outputs: files.map(({ output }) => ({
          artifact_id: output['artifact_id'],
          path: output['path'],
          owner_step: stepId,
          media_type: output['media_type'],
          schema_sha256:
            output['schema'] === null || output['schema'] === undefined ? null : obj(output['schema'])['sha256'],
          max_bytes: output['max_bytes'],
          content_sha256: digests.get(String(output['path'])),
          symlink_free: true,
          readback_verified: true,
          write_policy: output['write_policy'],
        })),
      },
    });
  }

  /** Project-relative path → the content of its latest successful write. */
  function latestWrites(t: Transcript, root: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const { call, result } of callsWithResults(t)) {
      const written = host.writtenFile(root, call);
      if (written !== undefined && result !== undefined && host.succeeded(call, result))
        out.set(written.path, written.content);
    }
    return out;
  }

  /** The digests of `paths` from a digest call made after each path's latest write, or undefined. */
  function digestsAfterWrites(t: Transcript, root: string, paths: readonly string[]): Map<string, string> | undefined {
    const entries = callsWithResults(t);
    const lastWrite = new Map<string, number>();
    entries.forEach(({ call }, i) => {
      const written = host.writtenFile(root, call);
      if (written !== undefined) lastWrite.set(written.path, i);
    });
    const out = new Map<string, string>();
    entries.forEach(({ call, result }, i) => {
      if (result === undefined || !host.succeeded(call, result)) return;
      const digests = host.digests(call, result);
      if (digests === undefined) return;
      for (const [path, hex] of digests) if (i > (lastWrite.get(path) ?? -1)) out.set(path, hex);
    });
    return paths.every((p) => out.has(p)) ? out : undefined;
  }

  function manifestText(step: Step): string {
    const d = host.declaration;
    const manifest = {
      harness: d.harness,
      adapter: d.adapter,
      delivered_assets: step.host_assets.map((a) => ({
        kind: a['kind'],
        id: a['id'],
        version: a['version'],
        sha256: a['sha256'],
        delivery: 'dynamic-context',
      })),
    };
    return `${JSON.stringify(manifest, null, 2)}\n`;
  }

  function hostAttestation(step: Step, checkpoint: Obj): Obj {
    const bound = obj(checkpoint['host']);
    const adapter = step.host_adapter;
    return {
      harness: bound['harness'],
      adapter: { id: bound['adapter_id'], version: bound['adapter_version'] },
      host_capabilities: bound['host_capabilities'],
      validator_capabilities: bound['validator_capabilities'],
      assets: [
        ...step.host_assets.map((a) => ({
          kind: a['kind'],
          asset_id: a['id'],
          version: a['version'],
          sha256: a['sha256'],
          delivery: 'dynamic-context',
          path: null,
        })),
        {
          kind: 'host-adapter',
          asset_id: adapter['id'],
          version: adapter['version'],
          sha256: adapter['sha256'],
          delivery: 'dynamic-context',
          path: null,
        },
      ],
    };
  }

  /** The subagent's prompt: the validator subagent text, then the validator, its step and round, inputs and brief. */
  function validatorPrompt(v: Obj, step: Step, payloads: readonly Step[], round: number): string {
    const subagent = payloads
      .flatMap((p) => p.host_assets)
      .find((a) => a['kind'] === 'subagent' && typeof a['content'] === 'string');
    if (subagent === undefined) throw new Error('the validator subagent text was never shown');
    const id = String(v['validator_id']);
    const payload = step.validators.find((x) => x['validator_id'] === id);
    const brief = payload === undefined ? undefined : obj(payload['brief']);
    if (brief === undefined) throw new Error(`the step payload has no brief for ${id}`);
    const pathOf = (artifactId: string): string => {
      const output = payloads.flatMap((p) => p.outputs).find((o) => o['artifact_id'] === artifactId);
      if (output === undefined) throw new Error(`no step declared ${artifactId}`);
      return String(output['path']);
    };
    const inputs = Object.keys(obj(v['input_artifacts'])).map((artifactId) => ({
      artifactId,
      path: pathOf(artifactId),
    }));
    return [
      String(subagent['content']).trim(),
      '',
      '---',
      '',
      ...validatorPromptLines(id, String(v['validator_version']), step.step.id, round, inputs),
      '',
      'Use only the Read, Grep and Glob tools. Never create, edit or delete a file, and never run a command.',
      '',
      `Validator brief (sha256 ${String(brief['sha256'])}):`,
      '',
      String(brief['content']).trim(),
    ].join('\n');
  }

  /** A subagent's answer with the binding fields the submit schema asks for added from the prepare answer. */
  function bindReport(v: Obj, answer: string): Obj {
    const start = answer.indexOf('{');
    const end = answer.lastIndexOf('}');
    if (start < 0 || end < start) throw new Error(`validator ${String(v['validator_id'])} returned no JSON report`);
    const report = JSON.parse(answer.slice(start, end + 1)) as Obj;
    return {
      validator_id: v['validator_id'],
      validator_version: v['validator_version'],
      instruction_sha256: v['instruction_sha256'],
      input_artifacts: v['input_artifacts'],
      validated_by: { harness: host.declaration.harness, adapter_version: host.declaration.adapter.version },
      outcome: report['outcome'],
      findings: report['findings'],
    };
  }

  return {
    roleOf: (t) => {
      const v = validatorOf(t);
      return v === undefined ? 'main' : `validator:${v.id}`;
    },
    decide: (t) => (validatorOf(t) === undefined ? main(t) : validatorTurn(t, host, script.criteria)),
  };
}

function stop(text: string): ModelTurn {
  return { kind: 'text', text };
}

export type { ValidatorJob };
