/**
 * Fixtures for tests that need the packaged research workflow in some state: it drives a real server through the
 * shipped library (`rimthan/participant`'s ParticipantSession over a Workspace) the way a harness does, writing the
 * realistic artifact bodies of research-artifacts.ts to disk, delivering the host assets, preparing from the files and
 * submitting validator report sets, to a named point: the route question, the decision-record step, or completed.
 * Tests where the wire itself is the point use the raw drivers instead (see test/mcp/support/participant.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject, JsonValue } from '../../src/core/index.js';
import {
  confirmState,
  connectServer,
  ParticipantSession,
  readSession,
  requiredValidators,
  Workspace,
  writeOutput,
  writeSession,
} from '../../src/participant/index.js';
import type { GivenReport, HostDeclaration, ServerTarget, SessionState } from '../../src/participant/index.js';
import { BODIES, DECISION_QUESTION } from '../mcp/support/research-artifacts.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export const OBJECTIVE = 'Pick the queue for billing events before the Q1 migration';

/** The host a Claude Code harness declares (the adapter is the one the workflow pins). */
export const HOST: HostDeclaration = {
  harness: 'claude-code',
  host_capabilities: [
    'mcp.tools',
    'mcp.resources',
    'mcp.prompts',
    'native-subagents',
    'scoped-inputs',
    'read-only-capabilities',
    'structured-reports',
  ],
  validator_capabilities: ['workspace.read', 'web.read'],
};

/** Where a drive stops. */
export type DrivePoint = 'route-question' | 'decision-record' | 'completed';

export interface DriveOptions {
  /** The confirmed objective (default OBJECTIVE). */
  readonly objective?: string;
  /** Artifact bodies by artifact id, over research-artifacts.ts's BODIES. */
  readonly bodies?: Readonly<Record<string, string>>;
  /** Validators that fail once (with `finding`) at desk-research before every validator passes. */
  readonly failOnce?: readonly string[];
  /** The message of the failing validators' finding. */
  readonly finding?: string;
}

/** What a drive reached: the session file's content and the statuses of the desk-research submissions. */
export interface Driven {
  readonly session: SessionState;
  readonly submissions: readonly string[];
}

/**
 * A `rimthan serve ARGS` over stdio with its state (and signing key) under `home`, signing with `secret` when given.
 */
export function stdioServe(home: string, secret?: string, args: readonly string[] = []): ServerTarget {
  return {
    kind: 'stdio',
    command: process.execPath,
    args: [MAIN, 'serve', ...args],
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      XDG_STATE_HOME: home,
      ...(secret === undefined ? {} : { RIMTHAN_WORKFLOW_SIGNING_SECRET: secret }),
    },
  };
}

/** Writes every declared output of the active step from `bodies`; an output without a body is a test error. */
async function writeOutputs(session: ParticipantSession, bodies: Readonly<Record<string, string>>): Promise<void> {
  const step = await session.stepPayload();
  for (const output of step.outputs) {
    const body = bodies[output.artifact_id];
    assert.ok(body !== undefined, `no body for artifact ${output.artifact_id} of step ${step.step.id}`);
    writeOutput(session.workspace, output, body);
  }
}

/** prepare from disk, then submit a report from every due validator: `failing` ones fail with `finding`. */
async function validate(session: ParticipantSession, failing: readonly string[], finding: string): Promise<JsonObject> {
  const prepared = await session.prepare();
  assert.equal(prepared.result['status'], 'ready_for_semantic_validation', JSON.stringify(prepared.result['failures']));
  const reports: GivenReport[] = requiredValidators(prepared.result['validation_bundle'] as JsonObject).map((id) => ({
    validator_id: id,
    report: failing.includes(id)
      ? { outcome: 'failed', findings: [{ severity: 'error', message: finding }] }
      : { outcome: 'passed', findings: [] },
    source: `test validator ${id}`,
  }));
  return session.submit(reports);
}

function currentStep(session: ParticipantSession): string {
  return readSession(session.workspace)?.checkpoint['current_step'] as string;
}

/** Start, setup attested, interview answered and confirmed, plan accepted: the route question is asked. */
async function toRouteQuestion(
  session: ParticipantSession,
  bodies: Readonly<Record<string, string>>,
  objective: string,
) {
  const started = await session.start({ workflow: 'research', host: HOST, state: { objective } });
  assert.equal(started['status'], 'active', JSON.stringify(started['blockers']));
  assert.equal(currentStep(session), 'setup-workspace');
  await session.writeAssets();
  const setup = await validate(session, [], '');
  assert.equal(setup['status'], 'advanced');
  assert.equal(currentStep(session), 'interview');
  const answered = readSession(session.workspace) as SessionState;
  const state: Record<string, JsonValue> = {
    ...(answered.confirmed_state['state'] as JsonObject),
    decision_question: DECISION_QUESTION,
    candidate_options: ['kafka', 'rabbitmq'],
  };
  const interviewed = await session.continue(confirmState(state, new Date(), answered.confirmed_state));
  assert.equal(interviewed['status'], 'active', JSON.stringify(interviewed['blockers']));
  if (currentStep(session) === 'interview') await session.continue();
  assert.equal(currentStep(session), 'confirm-contract');
  await session.continue();
  assert.equal(currentStep(session), 'select-route');
  // From research-decision@1.3.0 on, select-route is gated (it writes the research plan); earlier releases ask on
  // continue.
  const step = await session.stepPayload().catch(() => undefined);
  let question: JsonObject;
  if (step !== undefined && step.outputs.length > 0) {
    await writeOutputs(session, bodies);
    question = await validate(session, [], '');
  } else question = await session.continue();
  assert.equal(question['status'], 'input_required');
  assert.equal((question['question'] as JsonObject)['field'], 'research_route');
}

/**
 * Drives `session` (in an empty workspace) to `to`: desk research is the route; at desk-research the `failOnce`
 * validators fail once, then every validator passes.
 */
export async function driveResearch(
  session: ParticipantSession,
  to: DrivePoint,
  opts: DriveOptions = {},
): Promise<Driven> {
  await toRouteQuestion(session, { ...BODIES, ...opts.bodies }, opts.objective ?? OBJECTIVE);
  return fromRouteQuestion(session, to, opts);
}

/**
 * Takes a session that stands at the route question (its session file in `session`'s workspace, from this server or
 * another serving its release) on to `to`, as driveResearch does.
 */
export async function fromRouteQuestion(
  session: ParticipantSession,
  to: DrivePoint,
  opts: DriveOptions = {},
): Promise<Driven> {
  const bodies = { ...BODIES, ...opts.bodies };
  const submissions: string[] = [];
  if (to !== 'route-question') {
    const routed = await session.answer('research_route', 'desk-research');
    assert.equal(routed['status'], 'active', JSON.stringify(routed).slice(0, 400));
    assert.equal(currentStep(session), 'desk-research');
    await writeOutputs(session, bodies);
    if ((opts.failOnce ?? []).length > 0) {
      const failed = await validate(session, opts.failOnce ?? [], opts.finding ?? 'claim C2 cites one measurement');
      submissions.push(failed['status'] as string);
      assert.equal(failed['status'], 'validation_failed');
      assert.equal(currentStep(session), 'desk-research');
    }
    const passed = await validate(session, [], '');
    submissions.push(passed['status'] as string);
    assert.equal(passed['status'], 'advanced');
    assert.equal(currentStep(session), 'decision-record');
  }
  if (to === 'completed') {
    await writeOutputs(session, bodies);
    const done = await validate(session, [], '');
    submissions.push(done['status'] as string);
    assert.equal(done['status'], 'completed');
  }
  return { session: readSession(session.workspace) as SessionState, submissions };
}

/** Drives a fresh session on `target` in a temporary workspace to `to`; returns what the session file holds. */
export async function researchSessionAt(
  target: ServerTarget,
  to: DrivePoint,
  opts: DriveOptions = {},
): Promise<Driven> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-drive-'));
  const server = await connectServer(target);
  try {
    return await driveResearch(new ParticipantSession(server, new Workspace(dir)), to, opts);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `session` as `.rimthan/workflow-session.json` into `workspace`, as the library does. */
export function writeSessionFile(workspace: string, session: SessionState): void {
  writeSession(new Workspace(workspace), session);
}

/** A Workspace at `dir`, creating the folder first (a repository a person just made). */
export function workspaceAt(dir: string): Workspace {
  mkdirSync(dir, { recursive: true });
  return new Workspace(dir);
}
