/**
 * Walks one scenario through the engine the way a harness does: the participant library (`rimthan/participant`) over
 * the in-process server, in a scratch workspace. Each listed step is checked against where the engine is, its fields
 * confirmed, its fixtures written (refused ones first), its validator rounds submitted and its question answered; the
 * first difference ends the walk as a failure at the scenario line it concerns. What the walk exercised (steps
 * reached, branches taken, validators failing and passing, schemas refusing a fixture) is recorded for coverage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject, JsonValue } from '../core/index.js';
import { isRimthanError } from '../core/index.js';
import {
  confirmState,
  ParticipantSession,
  readSession,
  requiredValidators,
  Workspace,
  WORKSPACE_MANIFEST,
} from '../participant/index.js';
import type { GivenReport, GuidedServer, SessionState } from '../participant/index.js';
import type { Release, StepDefinition, WorkflowDefinition } from '../registry/index.js';
import { compareVersions } from '../registry/index.js';
import type { LoadedScenario, ScenarioPath, ScenarioReport, ScenarioStep } from './scenario.js';

/** What a walk exercised, as coverage keys (see coverage.ts). */
export interface RouteEvents {
  readonly steps: Set<string>;
  /** `from>to` for each branch taken. */
  readonly branches: Set<string>;
  /** `id@version` of validators that reported failed, and of those that reported passed. */
  readonly validatorsFailed: Set<string>;
  readonly validatorsPassed: Set<string>;
  /** `id@version` of artifact schemas that refused a fixture (json_schema_failed). */
  readonly schemasRefused: Set<string>;
}

export function noEvents(): RouteEvents {
  return {
    steps: new Set(),
    branches: new Set(),
    validatorsFailed: new Set(),
    validatorsPassed: new Set(),
    schemasRefused: new Set(),
  };
}

/** Where a walk went wrong: the scenario path to point at and what differed. */
class Differed extends Error {
  constructor(
    readonly path: ScenarioPath,
    message: string,
  ) {
    super(message);
  }
}

/** A walked scenario. */
export interface WalkResult {
  /** The workflow version walked; undefined when the scenario names none the source has. */
  readonly workflow?: { readonly id: string; readonly version: string };
  readonly events: RouteEvents;
  /** The scenario line and words of the first difference; undefined when the route ran as written. */
  readonly failure?: { readonly line: number; readonly message: string };
}

const SETTLED = new Set(['advanced', 'input_required', 'completed']);

/** The workflow version the scenario walks: the named one, else the newest in the release. */
export function scenarioWorkflow(release: Release, s: LoadedScenario): WorkflowDefinition | undefined {
  const versions = release.workflows
    .filter((w) => w.id === s.scenario.workflow)
    .sort((a, b) => compareVersions(b.version, a.version));
  const wanted = s.scenario.workflow_version;
  return wanted === undefined ? versions[0] : versions.find((w) => w.version === wanted);
}

function list(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

function failuresText(result: JsonObject): string {
  const failures = (result['failures'] ?? []) as JsonObject[];
  return list(
    failures.map((f) => {
      const about = [f['artifact_id'], f['validator_id'], f['reason']].filter((x) => typeof x === 'string');
      return `${String(f['code'])}${about.length > 0 ? ` (${about.join(', ')})` : ''}`;
    }),
  );
}

function blockersText(result: JsonObject): string {
  const blockers = (result['blockers'] ?? []) as JsonObject[];
  return list(
    blockers.map((b) => {
      const about = [b['field'], b['capability'], b['validator_id']].filter((x) => typeof x === 'string');
      return `${String(b['code'])}${about.length > 0 ? ` (${about.join(', ')})` : ''}`;
    }),
  );
}

function reportOf(report: ScenarioReport): JsonObject {
  if (report === 'passed') return { outcome: 'passed', findings: [] };
  return { outcome: report.outcome, findings: report.findings.map((f) => ({ ...f })) };
}

/** One walk: a session over `server` in a fresh scratch workspace, removed afterwards. */
class Walk {
  readonly events = noEvents();
  private status = 'active';
  /** The question the last input_required result asked. */
  private asked: JsonObject | undefined;
  private previous: string | undefined;

  constructor(
    private readonly s: LoadedScenario,
    private readonly workflow: WorkflowDefinition,
    private readonly session: ParticipantSession,
  ) {}

  private get workspace(): Workspace {
    return this.session.workspace;
  }

  private sessionFile(): SessionState {
    return readSession(this.workspace) as SessionState;
  }

  private current(): string {
    return this.sessionFile().checkpoint['current_step'] as string;
  }

  /** Runs an engine operation; a refusal (a tool error, a harness-side refusal) is a difference at `path`. */
  private async engine<T>(path: ScenarioPath, what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isRimthanError(error)) throw new Differed(path, `${what} refused: ${error.message}`);
      throw error;
    }
  }

  private stepDefinition(id: string): StepDefinition {
    return this.workflow.steps.find((st) => st.id === id) as StepDefinition;
  }

  private reached(stepId: string): void {
    this.events.steps.add(stepId);
    const from = this.previous === undefined ? undefined : this.stepDefinition(this.previous);
    if (from?.branches?.some((b) => b.to === stepId)) this.events.branches.add(`${from.id}>${stepId}`);
    this.previous = stepId;
  }

  async run(): Promise<void> {
    const sc = this.s.scenario;
    const started = await this.engine(['state'], 'start', () =>
      this.session.start({
        workflow: this.workflow.id,
        workflow_version: this.workflow.version,
        host: {
          harness: sc.host.harness,
          ...(sc.host.adapter === undefined ? {} : { adapter: sc.host.adapter }),
          host_capabilities: sc.host.host_capabilities,
          validator_capabilities: sc.host.validator_capabilities,
        },
        state: sc.state,
      }),
    );
    if (started['status'] !== 'active') {
      throw new Differed(['host'], `start was ${String(started['status'])}: ${blockersText(started)}`);
    }
    for (const [i, entry] of sc.steps.entries()) await this.step(i, entry);
    if (this.status !== 'completed') {
      throw new Differed(
        ['end'],
        `the route stops at step ${this.current()} (${this.status}) after the last listed step; the scenario ends completed`,
      );
    }
  }

  private async step(i: number, entry: ScenarioStep): Promise<void> {
    const at = (...rest: (string | number)[]): ScenarioPath => ['steps', i, ...rest];
    if (this.status === 'completed') {
      throw new Differed(at('step'), `the workflow is already completed; step ${entry.step} is never reached`);
    }
    const here = this.current();
    if (here !== entry.step) throw new Differed(at('step'), `expected step ${entry.step}, the engine is at ${here}`);
    this.reached(here);
    const definition = this.stepDefinition(here);
    const gated =
      here === this.workflow.start_step || definition.outputs.length > 0 || definition.validators.length > 0;
    const next =
      entry.confirm === undefined
        ? undefined
        : confirmState(
            { ...((this.sessionFile().confirmed_state['state'] ?? {}) as JsonObject), ...entry.confirm },
            new Date(),
            this.sessionFile().confirmed_state,
          );
    if (gated) {
      if (next !== undefined) {
        const r = await this.engine(at('confirm'), 'continue', () => this.session.continue(next));
        if (r['status'] !== 'active') {
          throw new Differed(at('confirm'), `continue was ${String(r['status'])}: ${blockersText(r)}`);
        }
      }
      await this.gatedWork(i, entry, definition);
    } else {
      for (const key of ['artifacts', 'refused', 'reports'] as const) {
        if (entry[key] !== undefined) {
          throw new Differed(at(key), `step ${here} writes no artifacts and has no validators: remove ${key}`);
        }
      }
      const r = await this.engine(at('step'), 'continue', () => this.session.continue(next));
      if (r['status'] === 'blocked') throw new Differed(at('step'), `continue was blocked: ${blockersText(r)}`);
      this.settle(r);
    }
    await this.question(i, entry);
  }

  private async question(i: number, entry: ScenarioStep): Promise<void> {
    const at = (...rest: (string | number)[]): ScenarioPath => ['steps', i, ...rest];
    if (this.status !== 'input_required') {
      if (entry.answer !== undefined) {
        throw new Differed(at('answer'), `the engine asks no question at step ${entry.step} (${this.status})`);
      }
      return;
    }
    const asked = this.asked;
    const field = String(asked?.['field']);
    if (entry.answer === undefined) {
      const options = ((asked?.['options'] ?? []) as JsonObject[]).map((o) => String(o['value']));
      throw new Differed(
        at('step'),
        `the engine asks ${field} at step ${entry.step} (options: ${list(options)}): give an answer`,
      );
    }
    const value = entry.answer;
    const r = await this.engine(at('answer'), 'the answer', () => this.session.answer(field, value as JsonValue));
    if (r['status'] === 'blocked' || r['status'] === 'input_required') {
      throw new Differed(
        at('answer'),
        `answering ${field} = ${JSON.stringify(value)} was ${String(r['status'])}: ${blockersText(r)}`,
      );
    }
    this.settle(r);
  }

  private settle(result: JsonObject): void {
    this.status = String(result['status']);
    this.asked = (result['question'] ?? undefined) as JsonObject | undefined;
  }

  private async gatedWork(i: number, entry: ScenarioStep, definition: StepDefinition): Promise<void> {
    const at = (...rest: (string | number)[]): ScenarioPath => ['steps', i, ...rest];
    const setup = definition.id === this.workflow.start_step;
    const given = entry.artifacts ?? {};
    for (const id of Object.keys(given)) {
      if (!definition.outputs.some((o) => o.artifact_id === id)) {
        const declared = definition.outputs.map((o) => o.artifact_id);
        throw new Differed(
          at('artifacts', id),
          `step ${definition.id} declares no artifact ${id} (it writes ${list(declared)})`,
        );
      }
    }
    const rounds = (entry.reports ?? [undefined]).length;
    for (const [k, revision] of (entry.revised ?? []).entries()) {
      if (k >= rounds - 1) {
        throw new Differed(at('revised', k), `revision ${k + 1} has no round of reports after it (${rounds} rounds)`);
      }
      for (const id of Object.keys(revision)) {
        if (!definition.outputs.some((o) => o.artifact_id === id)) {
          throw new Differed(at('revised', k, id), `step ${definition.id} declares no artifact ${id}`);
        }
      }
    }
    for (const o of definition.outputs) {
      if (given[o.artifact_id] === undefined && !(setup && o.artifact_id === WORKSPACE_MANIFEST)) {
        throw new Differed(
          at('step'),
          `step ${definition.id} writes ${o.artifact_id} (${o.path}): give its fixture in artifacts`,
        );
      }
    }
    if (setup) {
      await this.engine(at('step'), 'delivering the host assets', () =>
        this.session.writeAssets({ projectLocal: this.s.scenario.host.project_local ?? false }),
      );
    }
    const bytesOf = (fixture: string): Buffer => this.s.fixtures.get(fixture) as Buffer;
    const pathOf = (id: string): string => definition.outputs.find((o) => o.artifact_id === id)?.path as string;
    const writeAccepted = (id: string): void => {
      const fixture = given[id];
      if (fixture !== undefined) this.workspace.write(pathOf(id), bytesOf(fixture));
    };
    for (const id of Object.keys(given)) writeAccepted(id);
    const accepted = new Map<string, Buffer | undefined>();
    for (const [j, refusal] of (entry.refused ?? []).entries()) {
      const output = definition.outputs.find((o) => o.artifact_id === refusal.artifact);
      if (output === undefined) {
        throw new Differed(
          at('refused', j, 'artifact'),
          `step ${definition.id} declares no artifact ${refusal.artifact}`,
        );
      }
      if (!accepted.has(output.path))
        accepted.set(output.path, this.workspace.read(output.path, Number.MAX_SAFE_INTEGER));
      this.workspace.write(output.path, bytesOf(refusal.fixture));
      const prepared = await this.engine(at('refused', j), 'prepare', () => this.session.prepare());
      const failures = (prepared.result['failures'] ?? []) as JsonObject[];
      const hit = failures.some(
        (f) => f['code'] === refusal.code && (f['artifact_id'] === undefined || f['artifact_id'] === refusal.artifact),
      );
      if (!hit) {
        const got =
          prepared.result['status'] === 'ready_for_semantic_validation'
            ? 'was accepted'
            : `was refused with ${failuresText(prepared.result)}`;
        throw new Differed(
          at('refused', j),
          `step ${definition.id}: fixture ${refusal.fixture} for ${refusal.artifact} ${got}; expected ${refusal.code}`,
        );
      }
      if (refusal.code === 'json_schema_failed' && output.schema !== undefined) {
        this.events.schemasRefused.add(`${output.schema.id}@${output.schema.version}`);
      }
      const restore = accepted.get(output.path);
      if (restore !== undefined) this.workspace.write(output.path, restore);
    }
    await this.rounds(i, entry, definition);
  }

  private async rounds(i: number, entry: ScenarioStep, definition: StepDefinition): Promise<void> {
    const at = (...rest: (string | number)[]): ScenarioPath => ['steps', i, ...rest];
    const rounds = entry.reports ?? [undefined];
    for (const [k, round] of rounds.entries()) {
      const where = entry.reports === undefined ? at('step') : at('reports', k);
      const prepared = await this.engine(where, 'prepare', () => this.session.prepare());
      if (prepared.result['status'] !== 'ready_for_semantic_validation') {
        throw new Differed(
          where,
          `step ${definition.id}: prepare refused the artifacts: ${failuresText(prepared.result)}`,
        );
      }
      const bundle = prepared.result['validation_bundle'] as JsonObject;
      const due = requiredValidators(bundle).sort();
      const named = round === undefined ? due : Object.keys(round).sort();
      if (named.join() !== due.join()) {
        throw new Differed(
          where,
          `step ${definition.id}, round ${k + 1}: names ${list(named)} but the engine asks for ${list(due)}`,
        );
      }
      const versionOf = new Map(
        ((bundle['validators'] ?? []) as JsonObject[]).map((v) => [
          String(v['validator_id']),
          String(v['validator_version']),
        ]),
      );
      const reports: GivenReport[] = due.map((id) => ({
        validator_id: id,
        report: reportOf(round?.[id] ?? 'passed'),
        source: `${this.s.file} round ${k + 1} ${id}`,
      }));
      const failed = reports
        .filter((r) => (r.report as JsonObject)['outcome'] === 'failed')
        .map((r) => r.validator_id as string);
      const submitted = await this.engine(where, 'submit', () => this.session.submit(reports));
      const status = String(submitted['status']);
      for (const r of reports) {
        const key = `${r.validator_id as string}@${versionOf.get(r.validator_id as string) ?? ''}`;
        if ((r.report as JsonObject)['outcome'] === 'failed') this.events.validatorsFailed.add(key);
        else this.events.validatorsPassed.add(key);
      }
      const last = k === rounds.length - 1;
      if (failed.length > 0) {
        if (status !== 'validation_failed') {
          throw new Differed(
            where,
            `step ${definition.id}, round ${k + 1}: ${list(failed)} failed but submit was ${status}`,
          );
        }
        if (last) {
          throw new Differed(
            where,
            `step ${definition.id}: the last round has failed reports (${list(failed)}), so the step stays active; add a round in which they pass`,
          );
        }
        for (const [id, fixture] of Object.entries(entry.revised?.[k] ?? {})) {
          const output = definition.outputs.find((o) => o.artifact_id === id);
          if (output !== undefined) this.workspace.write(output.path, this.s.fixtures.get(fixture) as Buffer);
        }
        continue;
      }
      if (!SETTLED.has(status)) {
        throw new Differed(
          where,
          `step ${definition.id}, round ${k + 1}: every report passed but submit was ${status}`,
        );
      }
      if (!last) {
        throw new Differed(
          at('reports', k + 1),
          `step ${definition.id}: round ${k + 1} passed and the step moved on; the rounds after it are never asked`,
        );
      }
      this.settle(submitted);
    }
  }
}

/** Walks `s` over `server` (serving `release`) in a scratch workspace. */
export async function walkScenario(release: Release, server: GuidedServer, s: LoadedScenario): Promise<WalkResult> {
  const workflow = scenarioWorkflow(release, s);
  if (workflow === undefined) {
    const wanted = `${s.scenario.workflow}${s.scenario.workflow_version === undefined ? '' : `@${s.scenario.workflow_version}`}`;
    const path = s.scenario.workflow_version === undefined ? ['workflow'] : ['workflow_version'];
    return {
      events: noEvents(),
      failure: { line: s.lineOf(path), message: `release ${release.release} has no workflow ${wanted}` },
    };
  }
  const ref = { id: workflow.id, version: workflow.version };
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-route-'));
  const walk = new Walk(s, workflow, new ParticipantSession(server, new Workspace(dir)));
  try {
    await walk.run();
    return { workflow: ref, events: walk.events };
  } catch (error) {
    if (!(error instanceof Differed)) throw error;
    return { workflow: ref, events: walk.events, failure: { line: s.lineOf(error.path), message: error.message } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
