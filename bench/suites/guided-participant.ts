/**
 * A faithful participant harness for the guided suite: loads the packaged release, calls the four tools the way the
 * MCP layer does (input schema → engine → output schema → canonical JSON text), and builds valid arguments for every
 * step of the packaged research-decision workflow (host declaration, confirmed state, attestations, artifacts,
 * validator reports).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, KeyRing, TokenSigner } from '../../src/core/index.js';
import type { Clock, JsonObject, JsonValue } from '../../src/core/index.js';
import { packageRoot } from '../../src/package/root.js';
import { createGuidedEngine, GuidedToolName } from '../../src/guided/index.js';
import type { GuidedEngine, ReleaseScope } from '../../src/guided/index.js';
import type { CompiledToolContract } from '../../src/mcp/server/tool-contract.js';
import { compileWorkflowEngineContracts } from '../../src/mcp/workflow-engine/profile.js';
import { HostCapability, ValidatorCapability, verifyReleaseFile } from '../../src/registry/index.js';
import type { Release } from '../../src/registry/index.js';
import {
  artifactsFor as faithfulArtifacts,
  outputAttestation,
  setupAttestation,
  workspaceManifest,
} from '../../test/support/faithful-harness.js';

export const WORKFLOW_ID = 'research-decision';
export const HARNESS = 'claude-code';
/** A fixed instant: tokens and confirmations stay valid however long the benchmark runs. */
export const FIXED_TIME = '2026-11-02T09:00:00.000Z';
const FIXED_MS = Date.parse(FIXED_TIME);
export const fixedClock: Clock = { now: () => new Date(FIXED_MS) };
/** The signing key of the benchmark engine (a server built with it accepts the walk's checkpoints). */
export const BENCH_KEY = { activeKeyId: 'bench', activeSecret: 'bench-secret-0123456789abcdef0123456789' } as const;

/** The packaged active release (releases/ACTIVE → releases/dist/<name>.json), verified like the server does. */
export function loadPackagedRelease(): { release: Release; bytes: Uint8Array; name: string } {
  const root = packageRoot();
  const name = readFileSync(join(root, 'releases', 'ACTIVE'), 'utf8').trim();
  const bytes = readFileSync(join(root, 'releases', 'dist', `${name}.json`));
  const verified = verifyReleaseFile(bytes);
  if (!verified.ok) throw new Error(`packaged release ${name} does not verify: ${verified.reason}`);
  return { release: verified.release, bytes, name };
}

/** One tool call as the MCP layer makes it, minus the transport. Throws if either schema check fails. */
export type ToolCall = (args: JsonObject) => JsonObject;

export interface GuidedClient {
  readonly engine: GuidedEngine;
  call(tool: GuidedToolName, scope: ReleaseScope): ToolCall;
}

/**
 * Engine with a fixed clock and a fresh signing key; the tool contracts compiled once, exactly as the workflow-engine
 * profile compiles them (same compiler options, same result text writer).
 */
export function guidedClient(): GuidedClient {
  const signer = new TokenSigner(new KeyRing(BENCH_KEY));
  const engine = createGuidedEngine({ signer, clock: fixedClock });
  const checks = new Map<string, CompiledToolContract>();
  for (const c of compileWorkflowEngineContracts()) checks.set(c.name, c);
  const method = {
    [GuidedToolName.StartWorkflow]: (s: ReleaseScope, a: JsonObject) => engine.startWorkflow(s, a),
    [GuidedToolName.ContinueWorkflow]: (s: ReleaseScope, a: JsonObject) => engine.continueWorkflow(s, a),
    [GuidedToolName.PrepareStepValidation]: (s: ReleaseScope, a: JsonObject) => engine.prepareStepValidation(s, a),
    [GuidedToolName.SubmitStepValidation]: (s: ReleaseScope, a: JsonObject) => engine.submitStepValidation(s, a),
  };
  return {
    engine,
    call(tool, scope) {
      const c = checks.get(tool);
      if (c === undefined) throw new Error(`no contract for ${tool}`);
      const run = method[tool];
      let textChecked = false;
      return (args) => {
        if (!c.checkInput(args).ok) throw new Error(`${tool}: arguments break the input schema`);
        const result = run(scope, args);
        if (!c.checkOutput(result).ok) throw new Error(`${tool}: result breaks the output schema`);
        const text = canonicalJson(result);
        if (!textChecked) {
          // Once per tool call site: reusing frozen fragments must give the text of an unshared copy, byte for byte.
          if (text !== canonicalJson(structuredClone(result))) {
            throw new Error(`${tool}: result text is not the canonical JSON`);
          }
          textChecked = true;
        }
        return result;
      };
    },
  };
}

/** A confirmed-state projection with every field confirmed by the participant at the fixed time. */
export function confirmed(state: JsonObject): JsonObject {
  const confirmations: JsonObject = {};
  for (const field of Object.keys(state))
    confirmations[field] = { confirmed_by: 'participant', confirmed_at: FIXED_TIME };
  return { state, confirmations };
}

/** start_workflow arguments for the packaged workflow's pinned claude-code adapter, with every capability. */
export function startArgs(release: Release): JsonObject {
  const workflow = release.workflows.find((w) => w.id === WORKFLOW_ID);
  const adapter = workflow?.host_adapters[HARNESS];
  if (adapter === undefined) throw new Error(`the packaged release has no ${WORKFLOW_ID} workflow for ${HARNESS}`);
  return {
    workflow: WORKFLOW_ID,
    confirmed_state: confirmed({ objective: 'Choose the message queue for the billing service' }),
    host: {
      harness: HARNESS,
      adapter: { id: adapter.id, version: adapter.version },
      host_capabilities: Object.values(HostCapability),
      validator_capabilities: Object.values(ValidatorCapability),
      repository_policy: { conflict: false },
    },
  };
}

/** Where the participant is: the latest checkpoint envelope, the confirmed state and the step payload. */
export interface Position {
  readonly checkpoint: JsonObject;
  readonly state: JsonObject;
  readonly step: JsonObject;
}

function obj(value: JsonValue | undefined, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value;
}

function list(value: JsonValue | undefined, what: string): JsonObject[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value.map((v) => obj(v, what));
}

export function stepIdOf(pos: Position): string {
  return pos.checkpoint['current_step'] as string;
}

/** Applies a start/continue/submit result that carries a checkpoint and (unless completed) a step. */
export function moved(result: JsonObject, state: JsonObject): Position {
  return { checkpoint: obj(result['checkpoint'], 'checkpoint'), state, step: (result['step'] ?? null) as JsonObject };
}

/** The setup host attestation of a harness that delivered every asset (project-local when the adapter offers it). */
export function hostAttestation(pos: Position): JsonObject {
  return setupAttestation(pos.step, pos.checkpoint);
}

/** Artifacts for the step's declared outputs from `bodies`; every output must have a body. */
export function artifactsFor(pos: Position, bodies: Readonly<Record<string, string>>): JsonObject[] {
  for (const o of list(pos.step['outputs'], 'outputs')) {
    const id = o['artifact_id'] as string;
    if (bodies[id] === undefined) throw new Error(`no body for artifact ${id}`);
  }
  return faithfulArtifacts(pos.step, bodies);
}

/** prepare_step_validation arguments for the current step with these artifact bodies. */
export function prepareArgs(pos: Position, bodies: Readonly<Record<string, string>>): JsonObject {
  const isSetup = stepIdOf(pos) === 'setup-workspace';
  const host = obj(pos.checkpoint['host'], 'checkpoint host');
  const base: JsonObject = {
    checkpoint: pos.checkpoint,
    confirmed_state: pos.state,
    repository_policy: { conflict: false },
    validator_capabilities: host['validator_capabilities'] as JsonValue,
  };
  if (isSetup) {
    const attestation = hostAttestation(pos);
    return {
      ...base,
      artifacts: artifactsFor(pos, { 'workspace-manifest': workspaceManifest(attestation) }),
      host_attestation: attestation,
    };
  }
  const artifacts = artifactsFor(pos, bodies);
  return { ...base, artifacts, output_attestation: outputAttestation(pos.step, artifacts) };
}

/** submit_step_validation arguments with a passing report from every validator prepare asked for. */
export function submitArgs(pos: Position, prepared: JsonObject): JsonObject {
  const host = obj(pos.checkpoint['host'], 'checkpoint host');
  const reports = list(prepared['validators'], 'validators').map((v) => ({
    validator_id: v['validator_id'] as string,
    validator_version: v['validator_version'] as string,
    instruction_sha256: v['instruction_sha256'] as string,
    input_artifacts: v['input_artifacts'] as JsonValue,
    validated_by: { harness: host['harness'] as string, adapter_version: host['adapter_version'] as string },
    outcome: 'passed',
    findings: [],
  }));
  return {
    checkpoint: pos.checkpoint,
    confirmed_state: pos.state,
    validation_bundle: obj(prepared['validation_bundle'], 'validation bundle'),
    reports,
  };
}
