/**
 * The library host tests' driver: a real host walks one route of a workflow of the served release, the scripted model
 * following that route's scenario (library-routes.ts) over stdio, and the run is checked as a person would see it:
 * the host exits cleanly within the turn cap, Rimthan answered `completed`, every step of the route was reached, the
 * validator rounds happened as the scenario says and every report stands against what the host showed
 * (library-judge.ts), no validator subagent saw the main conversation, and every artifact of the route is in the
 * workspace as its last fixture, passing its schema, beside a valid, completed session file.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchemaCompiler } from '../../../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../../../src/core/index.js';
import { checkSession } from '../../../../src/participant/index.js';
import type { Release } from '../../../../src/registry/index.js';
import { guidedAgent, SESSION_PATH } from './agent/guided-agent.js';
import type { HostVocabulary } from './agent/host-vocabulary.js';
import type { HostRun } from './host-session.js';
import type { HostProfile } from './host-profiles.js';
import { judgeRouteRun } from './library-judge.js';
import type { Judgement } from './library-judge.js';
import { contentAt, libraryRoutes, roundsOf, routeScript, sameText, sourceFolderOf } from './library-routes.js';
import type { LibraryRoute } from './library-routes.js';
import { runFigures } from './run-figures.js';
import { makeScratch } from './scratch.js';
import type { Scratch } from './scratch.js';
import { pinnedAdapter, servedRelease } from './served-release.js';

/**
 * Model requests a route may take, main and subagents: a floor for the start and the end, then per validation round
 * of each step the main agent's turns (write, digest, prepare, spawn, collect, submit, save the session) and a few per
 * validator subagent (read its inputs, answer). A loop that does not converge stops here instead of running on.
 */
export function turnCap(route: LibraryRoute): number {
  let cap = 20;
  for (const entry of route.scenario.scenario.steps) {
    const validators = route.workflow.steps.find((s) => s.id === entry.step)?.validators.length ?? 0;
    cap += roundsOf(route, entry.step) * (10 + 4 * validators);
  }
  return cap;
}

function spoken(value: JsonValue): string {
  if (Array.isArray(value)) return value.map((v) => spoken(v)).join('; ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** What the person types: the workflow, everything they confirm and answer on the route, and that they are away. */
export function routePrompt(route: LibraryRoute): string {
  const sc = route.scenario.scenario;
  const lines = [`Use the Rimthan ${route.workflow.id} workflow (${route.workflow.title}) for this. I confirm:`];
  for (const [field, value] of Object.entries(sc.state)) lines.push(`- ${field}: ${spoken(value)}`);
  for (const entry of sc.steps) {
    for (const [field, value] of Object.entries(entry.confirm ?? {}))
      lines.push(`- at ${entry.step}, ${field}: ${spoken(value)}`);
    if (entry.answer !== undefined) lines.push(`- when ${entry.step} asks, my answer is ${spoken(entry.answer)}`);
  }
  lines.push('I am not at the keyboard: go through the whole workflow and tell me when it is complete.');
  return lines.join('\n');
}

export interface RouteRun {
  readonly run: HostRun;
  readonly judgement: Judgement;
}

export class LibraryHostSuite {
  readonly release: Release = servedRelease();
  readonly routes: readonly LibraryRoute[];
  private readonly scratches: Scratch[] = [];
  private readonly schemas = new Map<string, (value: unknown) => { ok: boolean }>();

  constructor(readonly host: HostProfile) {
    this.routes = libraryRoutes(this.release, sourceFolderOf(this.release.release), host.name);
  }

  /** The vocabulary of this host declaring the adapter `route`'s workflow pins for it. */
  vocabulary(route: LibraryRoute): HostVocabulary {
    return this.host.vocabulary(pinnedAdapter(this.release, route.workflow.id, this.host.name));
  }

  /** Walks `route` on this host over stdio and checks the run; returns it with the judge's findings. */
  async walk(route: LibraryRoute): Promise<RouteRun> {
    const w = route.workflow;
    const scratch = makeScratch(`${this.host.name}-${w.id}`, { 'README.md': `# ${w.title}\n\n${w.description}\n` });
    this.scratches.push(scratch);
    const vocabulary = this.vocabulary(route);
    const run = await this.host.run({
      scratch,
      model: guidedAgent({ script: routeScript(route), host: vocabulary }),
      server: { kind: 'stdio', args: [] },
      prompt: routePrompt(route),
      maxTurns: turnCap(route),
      timeoutMs: 600_000,
    });
    const judgement = judgeRouteRun(run, route, vocabulary);
    this.assertRouteRun(run, route, scratch, judgement);
    return { run, judgement };
  }

  private schemaCheck(id: string, version: string): (value: unknown) => { ok: boolean } {
    const key = `${id}@${version}`;
    let check = this.schemas.get(key);
    if (check === undefined) {
      const entry = this.release.schemas.find((s) => s.id === id && s.version === version);
      if (entry === undefined) throw new Error(`${this.release.release} has no schema ${key}`);
      check = new SchemaCompiler().compile(entry.schema);
      this.schemas.set(key, check);
    }
    return check;
  }

  private assertRouteRun(run: HostRun, route: LibraryRoute, scratch: Scratch, judgement: Judgement): void {
    const sc = route.scenario.scenario;
    const context = `${run.host} ${run.version} on ${route.scenario.file}, ${String(run.requests.length)} model turns`;
    assert.deepEqual(run.failures, [], `${context}: ${run.stderr.slice(-2000)}`);
    assert.equal(run.exitCode, 0, `${context} exited ${String(run.exitCode)}: ${run.stderr.slice(-2000)}`);
    const figures = runFigures(run.requests);
    const main = figures.exchanges.filter((e) => e.status !== undefined);
    const statuses = main.map((e) => e.status);
    assert.equal(statuses.at(-1), 'completed', `${context}: Rimthan answered ${statuses.join(' → ')}`);
    const refused = figures.exchanges.find((e) => e.result === undefined);
    assert.equal(refused, undefined, `${context}: a Rimthan call was refused: ${JSON.stringify(refused)}`);

    // Every step of the route was reached, in the scenario's order.
    const reached: string[] = [];
    for (const e of main) {
      const step = (e.result?.['checkpoint'] as JsonObject | undefined)?.['current_step'];
      if (typeof step === 'string' && reached.at(-1) !== step) reached.push(step);
    }
    assert.deepEqual(
      reached,
      sc.steps.map((s) => s.step),
      `${context}: the steps reached`,
    );

    // The validator rounds happened as the scenario says, and every report stands against what the host showed.
    assert.deepEqual(judgement.problems, [], context);
    for (const entry of sc.steps)
      for (const [k, round] of (entry.reports ?? []).entries())
        for (const id of Object.keys(round))
          assert.ok(
            (judgement.reported.get(`${entry.step}/${id}`)?.length ?? 0) > k,
            `${context}: ${id} never ran in round ${String(k + 1)} of ${entry.step}`,
          );

    // No validator subagent saw the main conversation.
    const token = ((main[0]?.result?.['checkpoint'] ?? {}) as { token?: string }).token ?? '';
    assert.ok(token.length >= 60, `${context}: the first answer carried a checkpoint token`);
    for (const request of run.requests.filter((r) => r.role.startsWith('validator:')))
      assert.ok(!JSON.stringify(request.body).includes(token.slice(0, 60)), `${request.role} saw the checkpoint`);

    // Every artifact of the route is in the workspace as its last fixture and passes its schema.
    const last = sc.steps.at(-1)!.step;
    const final = contentAt(route, last, roundsOf(route, last));
    for (const entry of sc.steps) {
      const step = route.workflow.steps.find((s) => s.id === entry.step);
      for (const output of step?.outputs ?? []) {
        const path = join(scratch.repo, output.path);
        assert.ok(existsSync(path), `${context}: ${output.path} is not in the workspace`);
        const text = readFileSync(path, 'utf8');
        const fixture = final.get(output.artifact_id);
        if (fixture !== undefined) assert.ok(sameText(text, fixture), `${output.path} is the route's last fixture`);
        if (output.schema !== undefined) {
          const verdict = this.schemaCheck(output.schema.id, output.schema.version)(JSON.parse(text));
          assert.ok(verdict.ok, `${context}: ${output.path} fails ${output.schema.id}@${output.schema.version}`);
        }
      }
    }
    const session = checkSession(JSON.parse(readFileSync(join(scratch.repo, SESSION_PATH), 'utf8')));
    assert.equal(session.checkpoint['current_step'], last, `${context}: the session file holds the final checkpoint`);
  }

  close(): void {
    for (const s of this.scratches) s.remove();
  }
}
