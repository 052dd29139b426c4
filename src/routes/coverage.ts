/**
 * Route coverage of one workflow version: which of its steps, branches, validators (failing and passing, counted
 * apart) and artifact schemas (refusing at least one fixture) the passing scenarios exercised, as covered ÷ all items.
 */
import type { WorkflowDefinition } from '../registry/index.js';
import type { RouteEvents } from './walk.js';

/** One kind of coverage item: how many were covered, of how many, and the ones that were not. */
export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
  readonly missing: readonly string[];
}

export interface WorkflowCoverage {
  readonly workflow: string;
  readonly version: string;
  /** Scenarios of this workflow version, and how many of them passed (only passing ones count for coverage). */
  readonly scenarios: number;
  readonly passed: number;
  readonly steps: CoverageCount;
  readonly branches: CoverageCount;
  readonly validators_failing: CoverageCount;
  readonly validators_passing: CoverageCount;
  readonly schemas_refusing: CoverageCount;
  /** Covered items ÷ all items, as a whole percentage rounded down. */
  readonly percent: number;
}

function count(items: readonly string[], seen: (item: string) => boolean, label = (i: string) => i): CoverageCount {
  const unique = [...new Set(items)];
  const missing = unique.filter((i) => !seen(i));
  return { covered: unique.length - missing.length, total: unique.length, missing: missing.map(label) };
}

/** The coverage of `workflow` by the events of its passing scenarios. */
export function workflowCoverage(
  workflow: WorkflowDefinition,
  events: readonly RouteEvents[],
  scenarios: number,
): WorkflowCoverage {
  const any = (pick: (e: RouteEvents) => Set<string>) => (item: string) => events.some((e) => pick(e).has(item));
  const branches = workflow.steps.flatMap((s) => (s.branches ?? []).map((b) => `${s.id}>${b.to}`));
  const validators = workflow.steps.flatMap((s) => s.validators.map((v) => `${v.id}@${v.version}`));
  const schemas = workflow.steps.flatMap((s) =>
    s.outputs.flatMap((o) => (o.schema === undefined ? [] : [`${o.schema.id}@${o.schema.version}`])),
  );
  const counts = {
    steps: count(
      workflow.steps.map((s) => s.id),
      any((e) => e.steps),
    ),
    branches: count(
      branches,
      any((e) => e.branches),
      (b) => b.replace('>', ' → '),
    ),
    validators_failing: count(
      validators,
      any((e) => e.validatorsFailed),
    ),
    validators_passing: count(
      validators,
      any((e) => e.validatorsPassed),
    ),
    schemas_refusing: count(
      schemas,
      any((e) => e.schemasRefused),
    ),
  };
  const all = Object.values(counts);
  const total = all.reduce((n, c) => n + c.total, 0);
  const covered = all.reduce((n, c) => n + c.covered, 0);
  return {
    workflow: workflow.id,
    version: workflow.version,
    scenarios,
    passed: events.length,
    ...counts,
    percent: total === 0 ? 100 : Math.floor((100 * covered) / total),
  };
}
