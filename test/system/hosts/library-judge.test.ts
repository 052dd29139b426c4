/**
 * The library host tests' judge on recorded runs, without a host: a run whose validator subagents read what the route
 * wrote, reported the scenario's report and had it submitted stands; a subagent shown other bytes, a submitted report
 * other than the subagent's, and a failed round that never happened are each named.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorkflowDefinition } from '../../../src/registry/index.js';
import { claudeCodeVocabulary } from './support/agent/claude-code-vocabulary.js';
import { validatorPromptLines } from './support/agent/validator-agent.js';
import type { HostRun } from './support/host-session.js';
import { judgeRouteRun } from './support/library-judge.js';
import type { LibraryRoute } from './support/library-routes.js';
import type { RecordedRequest } from './support/model-endpoint.js';
import { hostDeclaration } from './support/person.js';
import type { ModelTurn, TranscriptEvent } from './support/transcript.js';

const ROOT = '/tmp/repo';
const FAILED = {
  outcome: 'failed',
  findings: [{ severity: 'error', message: 'no pnpm version', artifact_id: 'repro' }],
};
const PASSED = { outcome: 'passed', findings: [] };

const route: LibraryRoute = {
  workflow: {
    id: 'fix-bug',
    version: '1.0.0',
    steps: [{ id: 'reproduce', validators: [{ id: 'check', version: '1.0.0' }], outputs: [] }],
  } as unknown as WorkflowDefinition,
  scenario: {
    file: 'scenarios/fix-bug/r.yaml',
    scenario: {
      title: 'r',
      workflow: 'fix-bug',
      host: { harness: 'claude-code', host_capabilities: [], validator_capabilities: [] },
      state: {},
      steps: [
        {
          step: 'reproduce',
          artifacts: { repro: 'r1.json' },
          reports: [{ check: FAILED as never }, { check: 'passed' }],
          revised: [{ repro: 'r2.json' }],
        },
      ],
      end: 'completed',
    },
    fixtures: new Map([
      ['r1.json', Buffer.from('{"v":1}\n')],
      ['r2.json', Buffer.from('{"v":2}\n')],
    ]),
    lineOf: () => 1,
  },
};

const host = claudeCodeVocabulary({
  declaration: hostDeclaration('claude-code', { id: 'claude-code-host', version: '2.0.0' }),
  validatorAgentType: 'general-purpose',
});

function request(role: string, events: TranscriptEvent[], turn: ModelTurn): RecordedRequest {
  return {
    api: 'anthropic-messages',
    headers: {},
    bytes: 0,
    body: {},
    transcript: { system: `Primary working directory: ${ROOT}`, events, tools: [] },
    turn,
    role,
  };
}

/** A validator subagent of round `round` that was shown `shown` and answered `report`. */
function validator(round: number, shown: string, report: object): RecordedRequest {
  const prompt = [
    'You are a Rimthan validator.',
    '',
    ...validatorPromptLines('check', '1.0.0', 'reproduce', round, [{ artifactId: 'repro', path: 'work/r.json' }]),
    '',
  ].join('\n');
  const read = `     1\t${shown}\n`;
  return request(
    'validator:check',
    [
      { kind: 'user', text: prompt },
      { kind: 'call', id: `r${String(round)}`, name: 'Read', args: { file_path: `${ROOT}/work/r.json` } },
      { kind: 'result', id: `r${String(round)}`, text: read, isError: false },
    ],
    { kind: 'text', text: JSON.stringify({ validator_id: 'check', validator_version: '1.0.0', ...report }) },
  );
}

/** The main conversation: one submit per entry, with the reports sent and the status Rimthan answered. */
function main(submits: readonly { report: object; status: string }[]): RecordedRequest {
  const events: TranscriptEvent[] = [{ kind: 'user', text: 'Use the Rimthan fix-bug workflow.' }];
  submits.forEach(({ report, status }, i) => {
    events.push({
      kind: 'call',
      id: `s${String(i)}`,
      name: 'mcp__rimthan__rimthan_submit_step_validation',
      args: { checkpoint: { current_step: 'reproduce' }, reports: [{ validator_id: 'check', ...report }] },
    });
    events.push({ kind: 'result', id: `s${String(i)}`, text: JSON.stringify({ status }), isError: false });
  });
  return request('main', events, { kind: 'text', text: 'done' });
}

function run(requests: RecordedRequest[]): HostRun {
  return {
    host: 'claude-code',
    version: 'test',
    requests,
    failures: [],
    exitCode: 0,
    stdout: '',
    stderr: '',
    tap: [],
    elapsedMs: 0,
  };
}

const faithful = [
  validator(1, '{"v":1}', FAILED),
  validator(2, '{"v":2}', PASSED),
  main([
    { report: FAILED, status: 'validation_failed' },
    { report: PASSED, status: 'completed' },
  ]),
];

describe('the library route judge', () => {
  test('a run that did what the route says stands, with its reports and submits', () => {
    const j = judgeRouteRun(run(faithful), route, host);
    assert.deepEqual(j.problems, []);
    assert.deepEqual(j.reported.get('reproduce/check'), ['failed', 'passed']);
    assert.deepEqual(j.submits.get('reproduce'), ['validation_failed', 'completed']);
  });

  test('a subagent shown bytes the route did not write by its round is named', () => {
    const stale = [validator(1, '{"v":1}', FAILED), validator(2, '{"v":1}', PASSED), faithful[2]!];
    const j = judgeRouteRun(run(stale), route, host);
    assert.deepEqual(j.problems, [
      'check on reproduce, round 2: the host showed work/r.json other than the route wrote by then',
    ]);
  });

  test("a report other than the scenario's, or submitted other than reported, is named", () => {
    const j = judgeRouteRun(run([validator(1, '{"v":1}', PASSED), faithful[1]!, faithful[2]!]), route, host);
    assert.equal(j.problems.length, 1);
    assert.match(j.problems[0] ?? '', /^check on reproduce, round 1: reported \{"outcome":"passed"/);
    const swapped = main([
      { report: PASSED, status: 'validation_failed' },
      { report: PASSED, status: 'completed' },
    ]);
    const k = judgeRouteRun(run([faithful[0]!, faithful[1]!, swapped]), route, host);
    assert.deepEqual(k.problems, ['reproduce round 1: the agent submitted check other than its subagent reported']);
  });

  test('a failed round that never happened is named', () => {
    const once = [validator(2, '{"v":2}', PASSED), main([{ report: PASSED, status: 'completed' }])];
    const j = judgeRouteRun(run(once), route, host);
    assert.deepEqual(j.problems, [
      'reproduce round 1: the agent submitted check other than its subagent reported',
      'reproduce: submits answered settled, the scenario has validation_failed, settled',
    ]);
  });
});
