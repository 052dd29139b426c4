/**
 * `registry test`: check the source and build its release in memory, load the scenarios beside it, walk each one
 * through the in-process engine, and compute every workflow's coverage. Nothing is published and nothing is written
 * outside the scratch workspaces.
 */
import { performance } from 'node:perf_hooks';
import { checkSource } from '../registry/index.js';
import type { Problem, Release } from '../registry/index.js';
import { workflowCoverage } from './coverage.js';
import type { WorkflowCoverage } from './coverage.js';
import { inProcessServer } from './in-process-server.js';
import { loadScenarios } from './load-scenarios.js';
import type { ScenarioProblem } from './scenario.js';
import { walkScenario } from './walk.js';
import type { RouteEvents } from './walk.js';

export interface RouteTestOptions {
  /** Only the scenarios and coverage of this workflow id. */
  readonly workflow?: string;
  /** The coverage every workflow must reach, 0..100 (default 0: reported only). */
  readonly minCoverage?: number;
}

/** One scenario's run. */
export interface ScenarioRun {
  readonly file: string;
  readonly title: string;
  /** `id@version` walked (undefined when the source has no such workflow). */
  readonly workflow?: string;
  readonly ok: boolean;
  /** The first difference, at the scenario's file and line. */
  readonly failure?: ScenarioProblem;
  readonly ms: number;
}

export interface RouteTestReport {
  readonly release: string;
  readonly scenarios: readonly ScenarioRun[];
  /** Scenario files that did not load (shape, YAML, fixtures): each is a failed scenario. */
  readonly problems: readonly ScenarioProblem[];
  readonly coverage: readonly WorkflowCoverage[];
  readonly min_coverage: number;
  /** `id@version` of the workflows below min_coverage. */
  readonly below_minimum: readonly string[];
  /** Every scenario loaded and passed, and every workflow reaches min_coverage. */
  readonly ok: boolean;
  readonly ms: number;
}

export type RouteTestOutcome =
  | { readonly kind: 'source_invalid'; readonly problems: readonly Problem[] }
  | { readonly kind: 'unknown_workflow'; readonly workflow: string; readonly release: string }
  | { readonly kind: 'tested'; readonly report: RouteTestReport };

/** Runs the scenarios of the source folder `dir`. */
export async function testSource(dir: string, opts: RouteTestOptions = {}): Promise<RouteTestOutcome> {
  const began = performance.now();
  const checked = checkSource(dir);
  if (!checked.ok) return { kind: 'source_invalid', problems: checked.problems };
  const release = checked.release;
  if (opts.workflow !== undefined && !release.workflows.some((w) => w.id === opts.workflow)) {
    return { kind: 'unknown_workflow', workflow: opts.workflow, release: release.release };
  }
  const report = await runScenarios(dir, release, opts);
  return { kind: 'tested', report: { ...report, ms: Math.round(performance.now() - began) } };
}

async function runScenarios(dir: string, release: Release, opts: RouteTestOptions): Promise<RouteTestReport> {
  const loaded = loadScenarios(dir, opts.workflow);
  const server = inProcessServer(release);
  const runs: ScenarioRun[] = [];
  const passing = new Map<string, RouteEvents[]>();
  const tried = new Map<string, number>();
  for (const s of loaded.scenarios) {
    const began = performance.now();
    const walked = await walkScenario(release, server, s);
    const ms = Math.round(performance.now() - began);
    const key = walked.workflow === undefined ? undefined : `${walked.workflow.id}@${walked.workflow.version}`;
    if (key !== undefined) tried.set(key, (tried.get(key) ?? 0) + 1);
    if (key !== undefined && walked.failure === undefined)
      passing.set(key, [...(passing.get(key) ?? []), walked.events]);
    runs.push({
      file: s.file,
      title: s.scenario.title,
      ...(key === undefined ? {} : { workflow: key }),
      ok: walked.failure === undefined,
      ...(walked.failure === undefined ? {} : { failure: { file: s.file, ...walked.failure } }),
      ms,
    });
  }
  const coverage = release.workflows
    .filter((w) => opts.workflow === undefined || w.id === opts.workflow)
    .map((w) => {
      const key = `${w.id}@${w.version}`;
      return workflowCoverage(w, passing.get(key) ?? [], tried.get(key) ?? 0);
    });
  const min = opts.minCoverage ?? 0;
  const below = coverage.filter((c) => c.percent < min).map((c) => `${c.workflow}@${c.version}`);
  return {
    release: release.release,
    scenarios: runs,
    problems: loaded.problems,
    coverage,
    min_coverage: min,
    below_minimum: below,
    ok: loaded.problems.length === 0 && runs.every((r) => r.ok) && below.length === 0,
    ms: 0,
  };
}
