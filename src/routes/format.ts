/** The readable report of `registry test`: one line per scenario, failures at file:line, and the coverage table. */
import type { CoverageCount, WorkflowCoverage } from './coverage.js';
import type { RouteTestReport } from './run.js';
import { formatScenarioProblem } from './scenario.js';

const HEADINGS = [
  'workflow',
  'scenarios',
  'steps',
  'branches',
  'validators failing',
  'validators passing',
  'schemas refusing',
  'coverage',
];

function ratio(c: CoverageCount): string {
  return `${c.covered}/${c.total}`;
}

function row(c: WorkflowCoverage): string[] {
  return [
    `${c.workflow}@${c.version}`,
    `${c.passed}/${c.scenarios}`,
    ratio(c.steps),
    ratio(c.branches),
    ratio(c.validators_failing),
    ratio(c.validators_passing),
    ratio(c.schemas_refusing),
    `${c.percent}%`,
  ];
}

function table(rows: readonly string[][]): string[] {
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(HEADINGS), ...rows.map(line)];
}

function gaps(c: WorkflowCoverage): string[] {
  const parts: [string, CoverageCount][] = [
    ['step', c.steps],
    ['branch', c.branches],
    ['validator never failing', c.validators_failing],
    ['validator never passing', c.validators_passing],
    ['schema refusing no fixture', c.schemas_refusing],
  ];
  return parts.flatMap(([what, count]) => count.missing.map((m) => `${what} ${m}`));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The report as lines of text. */
export function formatRouteReport(report: RouteTestReport): string[] {
  const out: string[] = [];
  for (const p of report.problems) out.push(`FAIL  ${formatScenarioProblem(p)}`);
  for (const s of report.scenarios) {
    out.push(`${s.ok ? 'ok  ' : 'FAIL'}  ${s.file}  ${s.title} (${seconds(s.ms)})`);
    if (s.failure !== undefined) out.push(`      ${formatScenarioProblem(s.failure)}`);
  }
  if (out.length > 0) out.push('');
  out.push(`Coverage of release ${report.release}:`);
  out.push(...table(report.coverage.map(row)));
  const uncovered = report.coverage.flatMap((c) => gaps(c).map((g) => `  ${c.workflow}@${c.version}: ${g}`));
  if (uncovered.length > 0) out.push('', 'Not covered:', ...uncovered);
  const failed = report.scenarios.filter((s) => !s.ok).length + report.problems.length;
  const total = report.scenarios.length + report.problems.length;
  const minimum =
    report.min_coverage === 0
      ? ''
      : report.below_minimum.length === 0
        ? `; every workflow reaches ${report.min_coverage}%`
        : `; below ${report.min_coverage}%: ${report.below_minimum.join(', ')}`;
  out.push(
    '',
    `${total} scenario${total === 1 ? '' : 's'}: ${total - failed} passed, ${failed} failed (${seconds(report.ms)})${minimum}`,
  );
  return out;
}
