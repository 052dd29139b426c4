/**
 * One guided workflow run on a real host, end to end, and the checks every such run must pass: the host exits
 * cleanly within the turn cap, Rimthan answered `completed`, the failed report of the scenario's flawed draft came
 * back `validation_failed` and the repaired draft advanced, every validator ran as its own subagent that never saw the
 * main conversation, the files on disk are the final drafts, and the session file the host wrote is a valid,
 * completed session.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSession } from '../../../../src/participant/index.js';
import type { Scenario } from '../scenarios/billing-queue.js';
import { SESSION_PATH } from './agent/guided-agent.js';
import type { HostRun } from './host-session.js';
import { runFigures } from './run-figures.js';
import type { RunFigures } from './run-figures.js';
import type { Scratch } from './scratch.js';

/** The validators of each route (the research plan has none). */
const VALIDATORS: Readonly<Record<Scenario['route'], readonly string[]>> = {
  'desk-research': ['evidence-quality', 'citation-check', 'decision-coherence'],
  'prototype-spike': ['spike-reproducibility', 'decision-coherence'],
};

export function assertGuidedRun(run: HostRun, scenario: Scenario, scratch: Scratch): RunFigures {
  const context = `${run.host} ${run.version}, ${String(run.requests.length)} model turns`;
  assert.deepEqual(run.failures, [], `${context}: ${run.stderr.slice(-2000)}`);
  assert.equal(run.exitCode, 0, `${context} exited ${String(run.exitCode)}: ${run.stderr.slice(-2000)}`);
  const figures = runFigures(run.requests);
  const main = figures.exchanges.filter((e) => e.status !== undefined);
  const statuses = main.map((e) => e.status);
  assert.equal(statuses[statuses.length - 1], 'completed', `${context}: Rimthan answered ${statuses.join(' → ')}`);
  assert.equal(
    figures.exchanges.filter((e) => e.result === undefined).length,
    0,
    `${context}: a Rimthan call was refused: ${JSON.stringify(figures.exchanges.find((e) => e.result === undefined))}`,
  );

  // The flawed first draft failed its validator once; the repaired one advanced.
  const submits = main.filter((e) => e.tool.endsWith('submit_step_validation')).map((e) => e.status);
  assert.equal(submits.filter((s) => s === 'validation_failed').length, 1, `${context}: submits ${submits.join(', ')}`);
  const failedAt = submits.indexOf('validation_failed');
  assert.ok(
    ['advanced', 'completed'].includes(String(submits[failedAt + 1])),
    `${context}: submits ${submits.join(', ')}`,
  );

  // Every validator of the route ran as its own subagent, the failed one twice; none saw the main conversation.
  for (const id of VALIDATORS[scenario.route]) assert.ok((figures.validatorRuns.get(id) ?? 0) >= 1, `${id} never ran`);
  const failed = main[main.findIndex((e) => e.status === 'validation_failed')]?.result?.['failed_validators'];
  for (const id of (failed as { validator_id: string }[] | undefined) ?? [])
    assert.equal(
      figures.validatorRuns.get(id.validator_id),
      2,
      `${id.validator_id} ran once before and once after the repair`,
    );
  const token = String(((main[0]?.result?.['checkpoint'] ?? {}) as Record<string, unknown>)['token']);
  for (const request of run.requests.filter((r) => r.role.startsWith('validator:'))) {
    const body = JSON.stringify(request.body);
    assert.ok(
      !body.includes(token.slice(0, 60)),
      `${request.role}: the subagent saw the main conversation's checkpoint`,
    );
    assert.ok(!body.includes(scenario.objective), `${request.role}: the subagent saw the person's request`);
  }

  // No character reached the model damaged (Codex decodes each read of a stdio pipe on its own).
  const damaged = run.requests.filter((r) => JSON.stringify(r.body).includes('\ufffd')).length;
  assert.equal(damaged, 0, `${context}: ${String(damaged)} model requests hold U+FFFD`);

  // What is on disk is what the workflow accepted.
  for (const [artifact, drafts] of Object.entries(scenario.drafts)) {
    const path = ARTIFACT_PATHS[artifact];
    if (path === undefined) continue;
    assert.equal(
      readFileSync(join(scratch.repo, path), 'utf8'),
      drafts[drafts.length - 1],
      `${path} is the final draft`,
    );
  }
  const session = checkSession(JSON.parse(readFileSync(join(scratch.repo, SESSION_PATH), 'utf8')));
  assert.equal(session.checkpoint['current_step'], 'decision-record', 'the session file holds the final checkpoint');
  return figures;
}

const ARTIFACT_PATHS: Readonly<Record<string, string>> = {
  'research-plan': 'research/research-plan.md',
  'evidence-table': 'research/evidence-table.json',
  'desk-findings': 'research/desk-findings.md',
  'spike-results': 'research/spike-results.json',
  'spike-notes': 'research/spike-notes.md',
  'decision-record': 'research/decision-record.md',
  'decision-summary': 'research/decision-summary.json',
};
