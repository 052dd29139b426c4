import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { testSource } from '../../src/routes/index.js';
import type { RouteTestReport } from '../../src/routes/index.js';
import { DESK, edit, lineOf, SPIKE, withResearchCopy } from './support.js';

async function tested(dir: string, minCoverage = 0): Promise<RouteTestReport> {
  const outcome = await testSource(dir, { minCoverage });
  assert.equal(outcome.kind, 'tested', JSON.stringify(outcome).slice(0, 400));
  return (outcome as { report: RouteTestReport }).report;
}

/** The one failure of the report: its file, line and message. */
function onlyFailure(report: RouteTestReport): { file: string; line: number; message: string } {
  const failures = [
    ...report.problems,
    ...report.scenarios.flatMap((s) => (s.failure === undefined ? [] : [s.failure])),
  ];
  assert.equal(failures.length, 1, JSON.stringify(failures));
  assert.equal(report.ok, false);
  return failures[0] as { file: string; line: number; message: string };
}

describe('route scenarios: a scenario that differs from the engine names its file and line', () => {
  test('a step listed out of order fails at that entry, naming where the engine is', async () => {
    await withResearchCopy(async (dir) => {
      const line = edit(dir, DESK, '  - step: confirm-contract\n', '  - step: select-route\n');
      const failure = onlyFailure(await tested(dir));
      assert.equal(failure.file, DESK);
      assert.equal(failure.line, line);
      assert.match(failure.message, /expected step select-route, the engine is at confirm-contract/);
    });
  });

  test('a fixture that must be refused but is accepted fails at its refused entry', async () => {
    await withResearchCopy(async (dir) => {
      edit(
        dir,
        DESK,
        'fixture: fixtures/desk/refused/evidence-table-ungraded-claim.json',
        'fixture: fixtures/desk/evidence-table.json',
      );
      const failure = onlyFailure(await tested(dir));
      assert.equal(failure.line, lineOf(dir, DESK, 'fixture: fixtures/desk/evidence-table.json') - 1);
      assert.match(
        failure.message,
        /fixtures\/desk\/evidence-table\.json for evidence-table was accepted; expected json_schema_failed/,
      );
    });
  });

  test('a round that names other validators than the engine asks for fails at that round', async () => {
    await withResearchCopy(async (dir) => {
      edit(
        dir,
        DESK,
        '      - evidence-quality: passed\n        citation-check: passed\n',
        '      - evidence-quality: passed\n',
      );
      const failure = onlyFailure(await tested(dir));
      assert.equal(failure.line, lineOf(dir, DESK, '      - evidence-quality: passed\n'));
      assert.match(
        failure.message,
        /round 2: names evidence-quality but the engine asks for citation-check, evidence-quality/,
      );
    });
  });

  test('a route that stops before the workflow completes fails at end', async () => {
    await withResearchCopy(async (dir) => {
      const from = lineOf(dir, DESK, '  - step: decision-record\n');
      const to = lineOf(dir, DESK, 'end: completed');
      const lines = readFileSync(join(dir, DESK), 'utf8').split('\n');
      lines.splice(from - 1, to - from);
      writeFileSync(join(dir, DESK), lines.join('\n'));
      const failure = onlyFailure(await tested(dir));
      assert.equal(failure.line, lineOf(dir, DESK, 'end: completed'));
      assert.match(failure.message, /the route stops at step decision-record \(advanced\)/);
    });
  });

  test('an unknown key is a shape problem at its own line, and the scenario does not run', async () => {
    await withResearchCopy(async (dir) => {
      const line = edit(dir, SPIKE, '    artifacts:\n      research-plan:', '    artefacts:\n      research-plan:');
      const report = await tested(dir);
      const failure = onlyFailure(report);
      assert.deepEqual([failure.file, failure.line], [SPIKE, line]);
      assert.match(failure.message, /unknown key "artefacts" in steps\[3\]/);
      assert.equal(report.scenarios.length, 1, 'only the desk scenario ran');
    });
  });

  test('a fixture that does not exist is reported at the line naming it', async () => {
    await withResearchCopy(async (dir) => {
      rmSync(join(dir, 'scenarios/research-decision/fixtures/spike/research-plan.md'));
      const failure = onlyFailure(await tested(dir));
      assert.equal(failure.line, lineOf(dir, SPIKE, 'research-plan: fixtures/spike/research-plan.md'));
      assert.match(failure.message, /fixture fixtures\/spike\/research-plan\.md does not exist/);
    });
  });
});

describe('route coverage', () => {
  test('the packaged research scenarios cover every step, branch, validator and schema', async () => {
    await withResearchCopy(async (dir) => {
      const report = await tested(dir, 100);
      assert.ok(report.ok, JSON.stringify(report.scenarios.filter((s) => !s.ok)));
      const [c] = report.coverage;
      assert.equal(c?.percent, 100);
      assert.deepEqual(
        [c?.steps.total, c?.branches.total, c?.validators_failing.total, c?.schemas_refusing.total],
        [7, 2, 4, 4],
      );
    });
  });

  test('one route counts what it exercised; coverage below --min-coverage fails the run', async () => {
    await withResearchCopy(async (dir) => {
      rmSync(join(dir, SPIKE));
      const report = await tested(dir, 80);
      const c = report.coverage[0];
      assert.ok(c !== undefined);
      assert.deepEqual(
        [c.steps, c.branches, c.validators_failing, c.validators_passing, c.schemas_refusing].map((x) => [
          x.covered,
          x.total,
        ]),
        [
          [6, 7],
          [1, 2],
          [2, 4],
          [3, 4],
          [3, 4],
        ],
      );
      assert.deepEqual(c.steps.missing, ['prototype-spike']);
      assert.deepEqual(c.branches.missing, ['select-route → prototype-spike']);
      assert.deepEqual(c.validators_failing.missing, ['spike-reproducibility@1.0.0', 'decision-coherence@1.1.0']);
      assert.deepEqual(c.schemas_refusing.missing, ['spike-results@1.0.0']);
      assert.equal(c.percent, Math.floor((100 * 15) / 21));
      assert.deepEqual(report.below_minimum, ['research-decision@1.3.0']);
      assert.equal(report.ok, false, 'every scenario passed, but coverage is below the minimum');
      assert.ok(report.scenarios.every((s) => s.ok));
    });
  });

  test('a failed scenario adds nothing to coverage', async () => {
    await withResearchCopy(async (dir) => {
      edit(dir, SPIKE, '  - step: decision-record\n', '  - step: decision-recorded\n');
      const report = await tested(dir);
      const c = report.coverage[0];
      assert.equal(c?.passed, 1);
      assert.equal(c?.scenarios, 2);
      assert.deepEqual(c?.steps.missing, ['prototype-spike']);
    });
  });
});
