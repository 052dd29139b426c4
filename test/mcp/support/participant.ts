/**
 * A faithful participant harness for the packaged research-decision workflow, driving the four tools through any
 * MCP client (in-process or a spawned `rimthan serve`). It keeps only what a harness keeps: the confirmed state, the
 * latest checkpoint and step payload.
 *
 * Kept for wire tests: the guided tools' exact answers and refusals (mcp/workflow-engine, mcp/server), tampering and
 * checkpoint forging, the recorded calls property tests mutate (guided/fixtures/recorded-run), MCP clients, revisions
 * and transports (system/clients, mcp/extensions, mcp/transports/stdio's restart test with its stderr checks,
 * participant/skill-assets and host-asset-references), calls spread over replicas or an outage (system/service), the
 * protocol walkthrough (system/docs), and in-process servers the library cannot reach (observability/metrics).
 * Fixtures that only need a workflow in some state use rimthan/participant via test/support/participant-drive.ts
 * (console/guided-session, observability/serve-observability, mcp/transports/stdio's pinned resume;
 * observability/tracing should follow, it belongs to the tracing work). test/guided/fixtures/drive.ts stays as it is:
 * it drives the engine in-process against the fixture release, below MCP, where the library does not reach.
 */
import assert from 'node:assert/strict';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { artifactsFor, outputAttestation, reportsFor } from '../../support/faithful-harness.js';
import { BODIES } from './research-artifacts.js';

export interface CallOutcome {
  readonly isError: boolean;
  readonly value: JsonObject;
}
export type Caller = (name: string, args: JsonObject) => Promise<CallOutcome>;

/** The host capabilities of the default host declaration (a test adds `project-local-assets` when it needs it). */
export const HOST_CAPABILITIES: readonly string[] = [
  'mcp.tools',
  'mcp.resources',
  'mcp.prompts',
  'native-subagents',
  'scoped-inputs',
  'read-only-capabilities',
  'structured-reports',
];
const VALIDATOR_CAPABILITIES = ['workspace.read', 'web.read'];
/**
 * The host declaration override for a server on the packaged active release (the library): its workflows pin the
 * shared Claude Code adapter 2.0.0, where the research releases this participant defaults to pin 1.1.0.
 */
export const LIBRARY_HOST: JsonObject = { adapter: { id: 'claude-code-host', version: '2.0.0' } };
export const OBJECTIVE = 'Pick the queue for billing events before the Q1 migration';

const now = (): string => new Date().toISOString();

/** A projection with every field confirmed now, keeping earlier confirmations of unchanged fields. */
export function confirmed(state: JsonObject, previous?: JsonObject): JsonObject {
  const prevState = (previous?.['state'] ?? {}) as JsonObject;
  const prevConf = (previous?.['confirmations'] ?? {}) as JsonObject;
  const confirmations: JsonObject = {};
  for (const field of Object.keys(state)) {
    const same = JSON.stringify(prevState[field]) === JSON.stringify(state[field]);
    confirmations[field] =
      same && prevConf[field] !== undefined ? prevConf[field] : { confirmed_by: 'participant', confirmed_at: now() };
  }
  return { state: { ...state }, confirmations };
}

export class Participant {
  state: JsonObject = confirmed({ objective: OBJECTIVE });
  checkpoint: JsonObject | undefined;
  step: JsonObject | null = null;

  /** `hostOverrides` replace fields of the default Claude Code host declaration (e.g. fewer validator capabilities). */
  constructor(
    readonly call: Caller,
    readonly hostOverrides: JsonObject = {},
  ) {}

  get currentStep(): string {
    return (this.checkpoint?.['current_step'] as string | undefined) ?? '';
  }

  /** Calls a tool and asserts it was not a tool error. */
  async ok(name: string, args: JsonObject): Promise<JsonObject> {
    const outcome = await this.call(name, args);
    assert.equal(outcome.isError, false, `${name} failed: ${JSON.stringify(outcome.value)}`);
    return outcome.value;
  }

  /** Takes the new checkpoint; a result without a step payload on the same step (validation_failed) keeps ours. */
  private moved(result: JsonObject): JsonObject {
    const previous = this.currentStep;
    this.checkpoint = result['checkpoint'] as JsonObject;
    const step = (result['step'] as JsonObject | null | undefined) ?? null;
    if (step !== null || this.currentStep !== previous) this.step = step;
    return result;
  }

  host(): JsonObject {
    return {
      harness: 'claude-code',
      adapter: { id: 'claude-code-host', version: '1.1.0' },
      host_capabilities: [...HOST_CAPABILITIES],
      validator_capabilities: VALIDATOR_CAPABILITIES,
      repository_policy: { conflict: false },
      ...this.hostOverrides,
    };
  }

  async start(workflow = 'research'): Promise<JsonObject> {
    const result = await this.ok('rimthan.start_workflow', {
      workflow,
      confirmed_state: this.state,
      host: this.host(),
    });
    assert.equal(result['status'], 'active', JSON.stringify(result['blockers']));
    return this.moved(result);
  }

  /** continue_workflow, optionally proposing a next confirmed state (which becomes ours when accepted). */
  async continue(nextState?: JsonObject): Promise<JsonObject> {
    const next = nextState === undefined ? undefined : confirmed(nextState, this.state);
    const result = await this.ok('rimthan.continue_workflow', {
      checkpoint: this.checkpoint as JsonObject,
      confirmed_state: this.state,
      ...(next === undefined ? {} : { next_confirmed_state: next }),
    });
    if (next !== undefined && result['status'] !== 'blocked') this.state = next;
    return this.moved(result);
  }

  /**
   * How the host says it delivered each host asset at setup (default: dynamic context with the served digest); a test
   * that delivered an asset another way (e.g. loaded it through the Skills extension) states that here.
   */
  setupDelivery: (asset: JsonObject) => { sha256: string; delivery: string } = (a) => ({
    sha256: a['sha256'] as string,
    delivery: 'dynamic-context',
  });

  private setupArtifactsAndAttestation(step: JsonObject): { artifacts: JsonObject[]; attestation: JsonObject } {
    const adapter = step['host_adapter'] as JsonObject;
    const delivered = (step['host_assets'] as JsonObject[]).map((a) => ({
      kind: a['kind'] as string,
      id: a['id'] as string,
      version: a['version'] as string,
      ...this.setupDelivery(a),
    }));
    const manifest = {
      harness: 'claude-code',
      adapter: { id: adapter['id'] as string, version: adapter['version'] as string },
      delivered_assets: delivered,
    };
    const artifacts = this.artifacts(step, { 'workspace-manifest': JSON.stringify(manifest) });
    const host = this.checkpoint?.['host'] as JsonObject;
    const attestation = {
      harness: host['harness'] as string,
      adapter: { id: host['adapter_id'] as string, version: host['adapter_version'] as string },
      host_capabilities: host['host_capabilities'] as JsonValue,
      validator_capabilities: host['validator_capabilities'] as JsonValue,
      assets: [
        ...delivered.map((d) => ({
          kind: d.kind,
          asset_id: d.id,
          version: d.version,
          sha256: d.sha256,
          delivery: d.delivery,
          path: null,
        })),
        {
          kind: 'host-adapter',
          asset_id: adapter['id'] as string,
          version: adapter['version'] as string,
          sha256: adapter['sha256'] as string,
          delivery: 'dynamic-context',
          path: null,
        },
      ],
    };
    return { artifacts, attestation };
  }

  artifacts(step: JsonObject, bodies: Readonly<Record<string, string>> = BODIES): JsonObject[] {
    return artifactsFor(step, bodies);
  }

  /** prepare_step_validation for the current step with faithful artifacts and attestation. */
  async prepare(bodies: Readonly<Record<string, string>> = BODIES): Promise<JsonObject> {
    const step = this.step;
    assert.ok(step, 'no active step payload');
    const setup = this.currentStep === 'setup-workspace';
    let artifacts: JsonObject[];
    let attestation: JsonObject;
    if (setup) ({ artifacts, attestation } = this.setupArtifactsAndAttestation(step));
    else {
      artifacts = this.artifacts(step, bodies);
      attestation = outputAttestation(step, artifacts);
    }
    return this.ok('rimthan.prepare_step_validation', {
      checkpoint: this.checkpoint as JsonObject,
      confirmed_state: this.state,
      artifacts,
      repository_policy: { conflict: false },
      validator_capabilities: this.host()['validator_capabilities'] as JsonValue,
      ...(setup ? { host_attestation: attestation } : { output_attestation: attestation }),
    });
  }

  /** Reports from separate validator subagents: `failing` validators fail with one finding, the rest pass. */
  reports(prepared: JsonObject, failing: readonly string[] = []): JsonObject[] {
    const finding = { severity: 'error', message: 'claim C2 cites a single unrepeated measurement' };
    const outcomes = Object.fromEntries(failing.map((id) => [id, { outcome: 'failed' as const, findings: [finding] }]));
    return reportsFor(prepared, this.checkpoint as JsonObject, outcomes);
  }

  async submit(prepared: JsonObject, failing: readonly string[] = []): Promise<JsonObject> {
    const result = await this.ok('rimthan.submit_step_validation', {
      checkpoint: this.checkpoint as JsonObject,
      confirmed_state: this.state,
      validation_bundle: prepared['validation_bundle'] as JsonObject,
      reports: this.reports(prepared, failing),
    });
    return this.moved(result);
  }

  /** prepare + submit with every validator passing; asserts prepare was ready. */
  async passStep(): Promise<JsonObject> {
    const prepared = await this.prepare();
    assert.equal(prepared['status'], 'ready_for_semantic_validation', JSON.stringify(prepared['failures']));
    return this.submit(prepared);
  }
}
