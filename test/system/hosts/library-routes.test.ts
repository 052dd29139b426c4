/**
 * How the library host tests pick and read their routes, without a host: every workflow of the active release gets a
 * route on each pinned host (a scenario of its own workflow version, written for that host where one is), and a
 * route's steps become what the scripted model writes per round, what each validator reports per round, and a failed
 * report for an input that is not what the route wrote.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorkflowDefinition } from '../../../src/registry/index.js';
import { loadScenarios } from '../../../src/routes/index.js';
import type { LoadedScenario, Scenario } from '../../../src/routes/scenario.js';
import type { ValidatorTask } from './support/agent/validator-agent.js';
import {
  contentAt,
  libraryRoutes,
  pickRoute,
  releaseWorkflows,
  reportAt,
  roundsOf,
  routeScript,
  sourceFolderOf,
} from './support/library-routes.js';
import type { LibraryRoute } from './support/library-routes.js';
import { servedRelease } from './support/served-release.js';

const workflow = (id: string, version: string): WorkflowDefinition =>
  ({ id, version, steps: [] }) as unknown as WorkflowDefinition;

function loaded(file: string, scenario: Partial<Scenario>, fixtures: Record<string, string> = {}): LoadedScenario {
  return {
    file,
    scenario: {
      title: file,
      workflow: 'fix-bug',
      host: { harness: 'claude-code', host_capabilities: [], validator_capabilities: [] },
      state: {},
      steps: [],
      end: 'completed',
      ...scenario,
    },
    fixtures: new Map(Object.entries(fixtures).map(([k, v]) => [k, Buffer.from(v)])),
    lineOf: () => 1,
  };
}

describe('library routes', () => {
  test('every workflow of the active release has a route on each host, written for that host where one is', () => {
    const release = servedRelease();
    const source = sourceFolderOf(release.release);
    const { scenarios } = loadScenarios(source);
    const ids = releaseWorkflows(release).map((w) => w.id);
    assert.ok(ids.includes('research-decision') && ids.length > 1, `the library's workflows: ${ids.join(', ')}`);
    for (const harness of ['claude-code', 'codex']) {
      const routes = libraryRoutes(release, source, harness);
      assert.deepEqual(
        routes.map((r) => r.workflow.id),
        ids,
      );
      for (const { workflow: w, scenario } of routes) {
        assert.equal(scenario.scenario.workflow, w.id);
        const forHost = scenarios.some((s) => s.scenario.workflow === w.id && s.scenario.host.harness === harness);
        if (forHost) assert.equal(scenario.scenario.host.harness, harness, `${w.id} on ${harness}`);
      }
    }
  });

  test('a route is the first scenario for the harness, else the first, of the served workflow version only', () => {
    const w = workflow('fix-bug', '1.0.0');
    const b = loaded('scenarios/fix-bug/b.yaml', {
      host: { harness: 'codex', host_capabilities: [], validator_capabilities: [] },
    });
    const a = loaded('scenarios/fix-bug/a.yaml', {});
    const old = loaded('scenarios/fix-bug/0-old.yaml', {
      workflow_version: '0.9.0',
      host: { harness: 'codex', host_capabilities: [], validator_capabilities: [] },
    });
    const other = loaded('scenarios/threat-model/x.yaml', { workflow: 'threat-model' });
    assert.equal(pickRoute(w, [b, a, old, other], 'codex'), b);
    assert.equal(pickRoute(w, [b, a, old, other], 'claude-code'), a);
    assert.equal(pickRoute(w, [b, old], 'claude-code'), b, 'no scenario for the harness: the first one');
    assert.equal(pickRoute(workflow('deliver-feature', '1.0.0'), [a, b], 'codex'), undefined);
  });

  const route: LibraryRoute = {
    workflow: workflow('fix-bug', '1.0.0'),
    scenario: loaded(
      'scenarios/fix-bug/r.yaml',
      {
        steps: [
          { step: 'setup-workspace' },
          {
            step: 'reproduce',
            artifacts: { reproduction: 'r1.json', notes: 'n1.md' },
            reports: [
              { check: { outcome: 'failed', findings: [{ severity: 'error', message: 'no pnpm version' }] } },
              { check: 'passed' },
            ],
            revised: [{ reproduction: 'r2.json' }],
            answer: 'reproduced',
          },
          { step: 'fix', artifacts: { fix: 'f.json' }, confirm: { severity: 'high' } },
        ],
      },
      { 'r1.json': '{"v":1}\n', 'r2.json': '{"v":2}\n', 'n1.md': '# Notes\n', 'f.json': '{}\n' },
    ),
  };

  test("a route's fixtures per round: its revisions after each failed round, all of them for later steps", () => {
    assert.equal(roundsOf(route, 'reproduce'), 2);
    assert.equal(roundsOf(route, 'fix'), 1);
    assert.deepEqual(Object.fromEntries(contentAt(route, 'reproduce', 1)), {
      reproduction: '{"v":1}\n',
      notes: '# Notes\n',
    });
    assert.deepEqual(Object.fromEntries(contentAt(route, 'reproduce', 2)), {
      reproduction: '{"v":2}\n',
      notes: '# Notes\n',
    });
    assert.equal(contentAt(route, 'fix', 1).get('reproduction'), '{"v":2}\n');
    assert.throws(() => contentAt(route, 'investigate', 1), /never reaches step investigate/);
    const script = routeScript(route);
    assert.equal(script.draft('reproduce', 'reproduction', 0), '{"v":1}\n');
    assert.equal(script.draft('reproduce', 'reproduction', 1), '{"v":2}\n');
    assert.equal(script.repairs('reproduce', ['reproduction', 'notes']), 1);
    assert.equal(script.answer('reproduce', 'reproduction_outcome'), 'reproduced');
    assert.equal(script.answer('fix', 'anything'), undefined);
    assert.deepEqual(script.fieldsAt('fix'), { severity: 'high' });
  });

  test("a validator reports the scenario's report for its round, and fails an input the route did not write", () => {
    assert.equal(reportAt(route, 'reproduce', 'check', 1).outcome, 'failed');
    assert.deepEqual(reportAt(route, 'reproduce', 'check', 2), { outcome: 'passed', findings: [] });
    assert.deepEqual(reportAt(route, 'fix', 'check', 1), { outcome: 'passed', findings: [] }, 'no reports: passed');
    const { criteria } = routeScript(route);
    const task = (round: number): ValidatorTask => ({
      id: 'check',
      version: '1.0.0',
      step: 'reproduce',
      round,
      inputs: new Map([['reproduction', 'work/r.json']]),
    });
    const read = (text: string): Map<string, string> => new Map([['work/r.json', text]]);
    assert.deepEqual(criteria.report(task(1), read('{"v":1}\n')), reportAt(route, 'reproduce', 'check', 1));
    assert.deepEqual(criteria.report(task(2), read('{"v":2}')), { outcome: 'passed', findings: [] });
    const stale = criteria.report(task(2), read('{"v":1}\n'));
    assert.equal(stale.outcome, 'failed', 'round 2 read the unrevised draft');
    assert.match(stale.findings[0]?.message ?? '', /work\/r\.json is not the reproduction this route wrote by round 2/);
    assert.equal(criteria.report(task(1), new Map()).outcome, 'failed', 'an input it never read');
  });
});
