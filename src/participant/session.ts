/**
 * One participant's session against one server in one workspace: start, answer, continue, write-assets, prepare,
 * report, submit, each reading what it needs from the session file, the served content and the files on disk, and
 * saving the session file after every answer that carries a checkpoint. This is the loop a harness runs; the
 * `rimthan participant` CLI is a thin shell over it.
 */
import { str } from './payload.js';
import type { JsonObject, JsonValue } from '../core/index.js';
import { GuidedToolName } from '../guided/index.js';
import { answerValue, confirmState } from './answers.js';
import { requireAcceptedFiles, WORKSPACE_MANIFEST } from './accepted-files.js';
import { checkpointHost, hostAttestationFromDisk, outputsFromDisk, workspaceManifestText } from './attestations.js';
import type { PreparedArtifact } from './attestations.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import { deliverHostAssets } from './host-assets.js';
import type { DeliveredAssets } from './host-assets.js';
import { stepPayloadOf } from './payload.js';
import type { StepPayload } from './payload.js';
import { clearPending, readPending, tokenDigest, writePending } from './pending.js';
import type { PendingValidation } from './pending.js';
import {
  activeSummary,
  artifactPath,
  confirmedStateSchema,
  isGatedStep,
  pinnedWorkflow,
  releaseSummary,
  stepDefinition,
  workflowDefinition,
} from './release.js';
import { assembleReports } from './reports.js';
import type { GivenReport } from './reports.js';
import type { GuidedServer } from './connection.js';
import { readSession, requireSession, SESSION_FILE, writeSession } from './session-file.js';
import type { SessionState } from './session-file.js';
import { workOrdersFor } from './work-orders.js';
import type { WorkOrder } from './work-orders.js';
import type { Workspace } from './workspace.js';

export { WORKSPACE_MANIFEST };

export interface HostDeclaration {
  readonly harness: string;
  /** The pinned adapter; default: the one the workflow definition pins for the harness. */
  readonly adapter?: { readonly id: string; readonly version: string };
  readonly host_capabilities: readonly string[];
  readonly validator_capabilities: readonly string[];
}

export interface StartOptions {
  readonly workflow: string;
  readonly workflow_version?: string;
  readonly host: HostDeclaration;
  /** Initial confirmed-state fields, confirmed by the person now. */
  readonly state: Readonly<Record<string, JsonValue>>;
}

export interface SessionOptions {
  /** The repository policy sent with start and prepare (default `{conflict: false}`). */
  readonly repositoryPolicy?: JsonObject;
  readonly now?: () => Date;
}

/** A prepare answer and, when ready, the work orders for its validators. */
export interface Prepared {
  readonly result: JsonObject;
  readonly workOrders: readonly WorkOrder[];
}

const CHECKPOINT_WORDS =
  `the server does not accept the checkpoint in ${SESSION_FILE}: the file was edited, or it comes from another ` +
  'server (another signing key); restore it from Git or start again';

export class ParticipantSession {
  private readonly policy: JsonObject;
  private readonly now: () => Date;
  /** Release summaries already checked (release name → registry and manifest digest), for this connection. */
  private readonly served = new Map<string, string>();
  /** Workflow definitions by release/id/version (immutable). */
  private readonly workflows = new Map<string, Promise<JsonObject>>();
  /** The active step payload last served for a checkpoint token (payloads never change for one checkpoint). */
  private payload: { token: string; step: StepPayload } | undefined;

  constructor(
    readonly server: GuidedServer,
    readonly workspace: Workspace,
    opts: SessionOptions = {},
  ) {
    this.policy = opts.repositoryPolicy ?? { conflict: false };
    this.now = opts.now ?? (() => new Date());
  }

  /** Calls a tool; a tool error is thrown as server_refused naming the tool and the server's code and reason. */
  async call(tool: GuidedToolName, args: JsonObject): Promise<JsonObject> {
    const outcome = await this.server.call(tool, args);
    if (outcome.ok) return outcome.value;
    const e = outcome.error;
    const words =
      e.code === 'workflow_checkpoint_error'
        ? CHECKPOINT_WORDS
        : `${e.code}${e.reason === undefined ? '' : ` (${e.reason})`}: ${e.message}`;
    throw new ParticipantError(ParticipantErrorCode.ServerRefused, `${tool} refused: ${words}`);
  }

  /** The session file, checked locally and against the server: its release is served and is the same registry. */
  async load(): Promise<SessionState> {
    const session = requireSession(this.workspace);
    const release = str(session.checkpoint['registry_release']);
    const identity = `${str(session.checkpoint['registry_id'])}|${str(session.checkpoint['manifest_sha256'])}`;
    if (this.served.get(release) === identity) return session;
    const summary = await releaseSummary(this.server, release);
    if (summary === undefined) {
      const active = await activeSummary(this.server).catch(() => undefined);
      throw new ParticipantError(
        ParticipantErrorCode.ServerMismatch,
        `the session is pinned to release ${release}, which this server does not serve` +
          (active === undefined ? '' : ` (it serves ${str(active['release'])})`) +
          '; connect to the server the session was started on',
      );
    }
    if (
      summary['registry_id'] !== session.checkpoint['registry_id'] ||
      summary['manifest_sha256'] !== session.checkpoint['manifest_sha256']
    ) {
      throw new ParticipantError(
        ParticipantErrorCode.ServerMismatch,
        `${SESSION_FILE} is foreign to this server: release ${release} here is another registry or manifest than the session's`,
      );
    }
    this.served.set(release, identity);
    return session;
  }

  private save(session: SessionState, result: JsonObject, state: JsonObject = session.confirmed_state): SessionState {
    const checkpoint = result['checkpoint'];
    const token = (checkpoint as JsonObject | null | undefined)?.['token'];
    if (typeof token === 'string' && result['step'] !== null && result['step'] !== undefined) {
      this.payload = { token, step: stepPayloadOf(result['step']) };
    }
    if (checkpoint === null || checkpoint === undefined || result['status'] === 'blocked') return session;
    const next = { checkpoint: checkpoint as JsonObject, confirmed_state: state };
    writeSession(this.workspace, next);
    return next;
  }

  /** rimthan.start_workflow with the initial fields confirmed now; saves the session when it is active. */
  async start(opts: StartOptions): Promise<JsonObject> {
    if (readSession(this.workspace) !== undefined) {
      throw new ParticipantError(
        ParticipantErrorCode.WrongStep,
        `${SESSION_FILE} already exists: continue it (rimthan participant continue), or remove it to start over`,
      );
    }
    let adapter = opts.host.adapter;
    if (adapter === undefined) {
      const definition = await workflowDefinition(
        this.server,
        await activeSummary(this.server),
        opts.workflow,
        opts.workflow_version,
      );
      const pinned = ((definition['host_adapters'] ?? {}) as JsonObject)[opts.host.harness] as JsonObject | undefined;
      if (pinned === undefined) {
        throw new ParticipantError(
          ParticipantErrorCode.WrongStep,
          `workflow ${opts.workflow} pins no host adapter for ${opts.host.harness}`,
        );
      }
      adapter = { id: str(pinned['id']), version: str(pinned['version']) };
    }
    const confirmed = confirmState(opts.state, this.now());
    const result = await this.call(GuidedToolName.StartWorkflow, {
      workflow: opts.workflow,
      ...(opts.workflow_version === undefined ? {} : { workflow_version: opts.workflow_version }),
      confirmed_state: confirmed,
      host: {
        harness: opts.host.harness,
        adapter: { id: adapter.id, version: adapter.version },
        host_capabilities: [...opts.host.host_capabilities],
        validator_capabilities: [...opts.host.validator_capabilities],
        repository_policy: this.policy,
      },
    });
    if (result['status'] === 'active') {
      writeSession(this.workspace, { checkpoint: result['checkpoint'] as JsonObject, confirmed_state: confirmed });
    }
    return result;
  }

  /** rimthan.continue_workflow, optionally with next confirmed state; saves the new checkpoint. */
  async continue(next?: JsonObject): Promise<JsonObject> {
    const session = await this.load();
    const result = await this.call(GuidedToolName.ContinueWorkflow, {
      checkpoint: session.checkpoint,
      confirmed_state: session.confirmed_state,
      ...(next === undefined ? {} : { next_confirmed_state: next }),
    });
    this.save(session, result, next ?? session.confirmed_state);
    return result;
  }

  /** The workflow definition the session is pinned to. */
  async workflow(): Promise<JsonObject> {
    return this.pinned((await this.load()).checkpoint);
  }

  /** The (cached) definition of the workflow a checkpoint is pinned to. */
  private pinned(checkpoint: JsonObject): Promise<JsonObject> {
    const wf = checkpoint['workflow'] as JsonObject;
    const key = `${str(checkpoint['registry_release'])}|${str(wf['id'])}|${str(wf['version'])}`;
    let found = this.workflows.get(key);
    if (found === undefined) {
      found = pinnedWorkflow(this.server, checkpoint);
      found.catch(() => this.workflows.delete(key));
      this.workflows.set(key, found);
    }
    return found;
  }

  /** The answer `text` for `field` as the confirmed-state schema types it. */
  async answerValue(field: string, text: string): Promise<JsonValue> {
    const session = await this.load();
    const workflow = await this.pinned(session.checkpoint);
    const schema = await confirmedStateSchema(this.server, str(session.checkpoint['registry_release']), workflow);
    return answerValue(schema, field, text);
  }

  /** Confirms `field = value` (the person confirmed it now) and continues with it. */
  async answer(field: string, value: JsonValue): Promise<JsonObject> {
    const session = await this.load();
    const state = { ...((session.confirmed_state['state'] ?? {}) as JsonObject), [field]: value };
    return this.continue(confirmState(state, this.now(), session.confirmed_state));
  }

  /**
   * The active step's payload. A gated step is re-issued by continue without advancing (same checkpoint); an ungated
   * step has none to fetch without moving on, so this refuses it.
   */
  async stepPayload(): Promise<StepPayload> {
    const session = await this.load();
    const workflow = await this.pinned(session.checkpoint);
    const stepId = str(session.checkpoint['current_step']);
    const step = stepDefinition(workflow, stepId);
    if (
      this.payload !== undefined &&
      this.payload.token === session.checkpoint['token'] &&
      this.payload.step.step.id === stepId
    ) {
      return this.payload.step;
    }
    if (step === undefined || !isGatedStep(workflow, step)) {
      throw new ParticipantError(
        ParticipantErrorCode.WrongStep,
        `step ${stepId} has no files to write or validate: continue it`,
      );
    }
    const result = await this.continue();
    if (result['status'] !== 'active' || result['step'] === null) {
      throw new ParticipantError(
        ParticipantErrorCode.WrongStep,
        `step ${stepId} did not come back as the active step (${str(result['status'])})`,
      );
    }
    return stepPayloadOf(result['step']);
  }

  /**
   * Delivers the active step's host assets (project-local files where offered and wanted; the rest, and the host
   * adapter, as dynamic-context text) and at setup writes the workspace manifest from what it read back.
   */
  async writeAssets(opts: { projectLocal?: boolean } = {}): Promise<DeliveredAssets & { manifest?: string }> {
    const step = await this.stepPayload();
    const delivered = await deliverHostAssets(this.workspace, step, {
      ...(opts.projectLocal === undefined ? {} : { projectLocal: opts.projectLocal }),
      readResource: (uri) => this.server.readResource(uri),
      ...(this.server.getSkill === undefined ? {} : { getSkill: this.server.getSkill }),
    });
    const session = await this.load();
    const workflow = await this.pinned(session.checkpoint);
    const manifest = step.outputs.find((o) => o.artifact_id === WORKSPACE_MANIFEST);
    if (step.step.id !== workflow['start_step'] || manifest === undefined) return delivered;
    const attestation = hostAttestationFromDisk(this.workspace, step, checkpointHost(session.checkpoint));
    this.workspace.write(manifest.path, Buffer.from(workspaceManifestText(attestation), 'utf8'));
    return { ...delivered, written: [...delivered.written, manifest.path], manifest: manifest.path };
  }

  /** The artifacts and attestation prepare takes for the active step, read back from disk. */
  async prepareArguments(step?: StepPayload): Promise<JsonObject> {
    const payload = step ?? (await this.stepPayload());
    const session = await this.load();
    const workflow = await this.pinned(session.checkpoint);
    const host = checkpointHost(session.checkpoint);
    const setup = payload.step.id === workflow['start_step'];
    const prior = (session.checkpoint['artifacts'] ?? {}) as Record<string, string>;
    const { artifacts, attestation } = outputsFromDisk(this.workspace, payload, prior);
    const proof = setup
      ? { host_attestation: hostAttestationFromDisk(this.workspace, payload, host) }
      : { output_attestation: attestation };
    return {
      checkpoint: session.checkpoint,
      confirmed_state: session.confirmed_state,
      artifacts: artifacts as unknown as JsonObject[],
      repository_policy: this.policy,
      validator_capabilities: [...host.validator_capabilities],
      ...proof,
    };
  }

  /** rimthan.prepare_step_validation from the files on disk; when ready, keeps the bundle pending and makes the work orders. */
  async prepare(): Promise<Prepared> {
    const step = await this.stepPayload();
    const loaded = await this.load();
    requireAcceptedFiles(
      this.workspace,
      await this.pinned(loaded.checkpoint),
      (loaded.checkpoint['artifacts'] ?? {}) as JsonObject,
    );
    const args = await this.prepareArguments(step);
    const result = await this.call(GuidedToolName.PrepareStepValidation, args);
    if (result['status'] !== 'ready_for_semantic_validation') return { result, workOrders: [] };
    const session = await this.load();
    const workflow = await this.pinned(session.checkpoint);
    const workOrders = await workOrdersFor(step, result, {
      readResource: (uri) => this.server.readResource(uri),
      pathOf: (id) => artifactPath(workflow, id),
    });
    writePending(this.workspace, {
      checkpoint_token_sha256: tokenDigest(session.checkpoint),
      step_id: step.step.id,
      validation_bundle: result['validation_bundle'] as JsonObject,
      validators: (result['validators'] ?? []) as JsonObject[],
      reports: {},
    });
    return { result, workOrders };
  }

  /** The pending validation of the current checkpoint, or a refusal saying to prepare first. */
  pending(session: SessionState): PendingValidation {
    const pending = readPending(this.workspace, session.checkpoint);
    if (pending === undefined) {
      throw new ParticipantError(
        ParticipantErrorCode.WrongStep,
        'nothing is prepared for this checkpoint: run prepare first',
      );
    }
    return pending;
  }

  /** Registers the report file of a validator for the pending validation (its content is read at submit). */
  async registerReport(validatorId: string, file: string): Promise<PendingValidation> {
    const session = await this.load();
    const pending = this.pending(session);
    const listed = pending.validators.some((v) => v['validator_id'] === validatorId);
    if (!listed) {
      throw new ParticipantError(
        ParticipantErrorCode.ReportExtra,
        `validator ${validatorId} is not due a report (due: ${pending.validators.map((v) => str(v['validator_id'])).join(', ') || 'none'})`,
      );
    }
    const next = { ...pending, reports: { ...pending.reports, [validatorId]: file } };
    writePending(this.workspace, next);
    return next;
  }

  /** rimthan.submit_step_validation with the complete, bound report set; saves the new checkpoint. */
  async submit(given: readonly GivenReport[]): Promise<JsonObject> {
    const session = await this.load();
    const pending = this.pending(session);
    const reports = assembleReports(pending.validation_bundle, checkpointHost(session.checkpoint), given);
    const result = await this.call(GuidedToolName.SubmitStepValidation, {
      checkpoint: session.checkpoint,
      confirmed_state: session.confirmed_state,
      validation_bundle: pending.validation_bundle,
      reports,
    });
    clearPending(this.workspace);
    this.save(session, result);
    return result;
  }
}

export type { PreparedArtifact };
