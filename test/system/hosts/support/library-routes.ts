/**
 * The routes the library host tests walk on a real host: every workflow of the served release (enumerated from the
 * built release, so a workflow added later is covered without touching the tests), one route scenario each from its
 * source folder's `scenarios/<workflow>/*.yaml`, and that scenario turned into what the scripted model knows: the
 * confirmed state at the start, the fields confirmed at each step, the answers to questions, the artifact fixtures it
 * writes (its `revised` fixtures after a failed round), and the report each validator gives in each round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../../../../src/core/index.js';
import { packageRoot } from '../../../../src/package/index.js';
import { compareVersions } from '../../../../src/registry/index.js';
import type { Release, WorkflowDefinition } from '../../../../src/registry/index.js';
import { loadScenarios } from '../../../../src/routes/index.js';
import type { LoadedScenario, ScenarioReport, ScenarioStep } from '../../../../src/routes/scenario.js';
import type { GuidedScript } from './agent/guided-script.js';
import type { ValidatorReport } from './agent/validator-agent.js';

/** The newest version of every workflow of `release`, by id. */
export function releaseWorkflows(release: Release): WorkflowDefinition[] {
  const newest = new Map<string, WorkflowDefinition>();
  for (const w of release.workflows) {
    const seen = newest.get(w.id);
    if (seen === undefined || compareVersions(w.version, seen.version) > 0) newest.set(w.id, w);
  }
  return [...newest.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The packaged source folder whose registry.yaml builds `releaseName` (releases/src/<folder>). */
export function sourceFolderOf(releaseName: string, root: string = packageRoot()): string {
  const base = join(root, 'releases', 'src');
  for (const folder of readdirSync(base).sort()) {
    let text: string;
    try {
      text = readFileSync(join(base, folder, 'registry.yaml'), 'utf8');
    } catch {
      continue;
    }
    if (new RegExp(`^release: ${releaseName.replaceAll('.', '\\.')}\\s*$`, 'm').test(text)) return join(base, folder);
  }
  throw new Error(`no folder of releases/src builds ${releaseName}`);
}

/**
 * The route a host walks for `workflow`: among the scenarios written for this workflow version (sorted by file), the
 * first written for this harness, else the first. Undefined when the workflow has no scenario.
 */
export function pickRoute(
  workflow: WorkflowDefinition,
  scenarios: readonly LoadedScenario[],
  harness: string,
): LoadedScenario | undefined {
  const candidates = scenarios
    .filter((s) => s.scenario.workflow === workflow.id)
    .filter((s) => s.scenario.workflow_version === undefined || s.scenario.workflow_version === workflow.version)
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return candidates.find((s) => s.scenario.host.harness === harness) ?? candidates[0];
}

/** One workflow of the release and the route a host walks through it. */
export interface LibraryRoute {
  readonly workflow: WorkflowDefinition;
  readonly scenario: LoadedScenario;
}

/** The route of every workflow of `release` for `harness`; throws naming a workflow that has no scenario. */
export function libraryRoutes(release: Release, sourceDir: string, harness: string): LibraryRoute[] {
  const { scenarios, problems } = loadScenarios(sourceDir);
  if (problems.length > 0)
    throw new Error(
      `scenarios of ${sourceDir}: ${problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('; ')}`,
    );
  return releaseWorkflows(release).map((workflow) => {
    const scenario = pickRoute(workflow, scenarios, harness);
    if (scenario === undefined) throw new Error(`${workflow.id}@${workflow.version} has no route scenario`);
    return { workflow, scenario };
  });
}

function entryOf(route: LibraryRoute, stepId: string): ScenarioStep | undefined {
  return route.scenario.scenario.steps.find((s) => s.step === stepId);
}

function fixtureText(route: LibraryRoute, fixture: string): string {
  const bytes = route.scenario.fixtures.get(fixture);
  if (bytes === undefined) throw new Error(`${route.scenario.file}: fixture ${fixture} was not loaded`);
  return bytes.toString('utf8');
}

/** The validation rounds the scenario gives `stepId` (1 when it names none: every validator passes). */
export function roundsOf(route: LibraryRoute, stepId: string): number {
  return entryOf(route, stepId)?.reports?.length ?? 1;
}

/**
 * Every artifact the route has written by round `round` (1-based) of `stepId`: each earlier step's fixtures with all
 * its revisions, then this step's fixtures with the revisions of the rounds before `round`. artifact id → text.
 */
export function contentAt(route: LibraryRoute, stepId: string, round: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of route.scenario.scenario.steps) {
    const here = entry.step === stepId;
    for (const [id, fixture] of Object.entries(entry.artifacts ?? {})) out.set(id, fixtureText(route, fixture));
    const revisions = (entry.revised ?? []).slice(0, here ? round - 1 : undefined);
    for (const revision of revisions)
      for (const [id, fixture] of Object.entries(revision)) out.set(id, fixtureText(route, fixture));
    if (here) return out;
  }
  throw new Error(`${route.scenario.file} never reaches step ${stepId}`);
}

/** The report the scenario gives `validatorId` in round `round` (1-based) of `stepId` (`passed` when it names none). */
export function reportAt(route: LibraryRoute, stepId: string, validatorId: string, round: number): ValidatorReport {
  const given: ScenarioReport | undefined = entryOf(route, stepId)?.reports?.[round - 1]?.[validatorId];
  if (given === undefined || given === 'passed') return { outcome: 'passed', findings: [] };
  return { outcome: given.outcome, findings: given.findings.map((f) => ({ ...f })) };
}

/** Text compared as a reader sees it (a host's read may add or drop the final newline). */
export const sameText = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd();

/**
 * The route as the scripted model's script. Its validator subagents give the scenario's report for their step and
 * round once they have read every input, and only when what they read is what the route wrote by then; otherwise
 * they fail with an error finding naming the input that differs.
 */
export function routeScript(route: LibraryRoute): GuidedScript {
  const sc = route.scenario.scenario;
  return {
    workflow: route.workflow.id,
    startState: sc.state,
    fieldsAt: (stepId): Readonly<Record<string, JsonValue>> => entryOf(route, stepId)?.confirm ?? {},
    answer(stepId) {
      const answer = entryOf(route, stepId)?.answer;
      return answer === undefined ? undefined : answer;
    },
    draft: (stepId, artifactId, failedRounds) => contentAt(route, stepId, failedRounds + 1).get(artifactId),
    repairs: (stepId) => roundsOf(route, stepId) - 1,
    criteria: {
      sources: () => [],
      report(task, files) {
        const expected = contentAt(route, task.step, task.round);
        const differs = [...task.inputs].filter(([id, path]) => {
          const read = files.get(path);
          const written = expected.get(id);
          return read === undefined || (written !== undefined && !sameText(read, written));
        });
        if (differs.length > 0)
          return {
            outcome: 'failed',
            findings: differs.map(([id, path]) => ({
              severity: 'error' as const,
              message: `${path} is not the ${id} this route wrote by round ${String(task.round)} of ${task.step}`,
              artifact_id: id,
            })),
          };
        return reportAt(route, task.step, task.id, task.round);
      },
    },
  };
}
