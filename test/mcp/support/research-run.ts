/** The whole packaged research-decision workflow (desk-research route), as a faithful harness runs it. */
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/index.js';
import { DECISION_QUESTION } from './research-artifacts.js';
import type { Participant } from './participant.js';

/** From start to the route question: setup attested, interview, contract confirmed (and, gated, the plan accepted). */
export async function toRouteQuestion(p: Participant): Promise<JsonObject> {
  await p.start();
  assert.equal(p.currentStep, 'setup-workspace');
  const setup = await p.passStep();
  assert.equal(setup['status'], 'advanced');
  assert.equal(p.currentStep, 'interview');
  // The interview fills the contract; the participant confirms each field.
  const interviewed = await p.continue({
    ...(p.state['state'] as JsonObject),
    decision_question: DECISION_QUESTION,
    candidate_options: ['kafka', 'rabbitmq'],
  });
  assert.equal(interviewed['status'], 'active', JSON.stringify(interviewed['blockers']));
  if (p.currentStep === 'interview') await p.continue();
  assert.equal(p.currentStep, 'confirm-contract');
  await p.continue();
  assert.equal(p.currentStep, 'select-route');
  // From research-decision@1.3.0 on, select-route is gated (it writes the research plan) and its branch follows:
  // submit answers input_required. Earlier releases ask on continue.
  const gated = ((p.step?.['outputs'] as JsonObject[] | undefined) ?? []).length > 0;
  const question = gated ? await p.passStep() : await p.continue();
  assert.equal(question['status'], 'input_required');
  assert.equal((question['question'] as JsonObject)['field'], 'research_route');
  return question;
}

/** Answers the route question with desk research and completes the workflow, failing one validator once. */
export async function fromRouteToCompletion(p: Participant): Promise<string[]> {
  const routed = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'desk-research' });
  assert.equal(routed['status'], 'active', JSON.stringify(routed).slice(0, 400));
  assert.ok(routed['step'], 'routed step: ' + JSON.stringify(routed).slice(0, 600));
  assert.equal(p.currentStep, 'desk-research');
  return fromDeskResearchToCompletion(p);
}

/** From the desk-research step to completed, failing one validator once: the statuses of the three submissions. */
export async function fromDeskResearchToCompletion(p: Participant): Promise<string[]> {
  const statuses: string[] = [];
  const prepared = await p.prepare();
  assert.equal(prepared['status'], 'ready_for_semantic_validation', JSON.stringify(prepared['failures']));
  const failed = await p.submit(prepared, ['evidence-quality']);
  statuses.push(failed['status'] as string);
  assert.equal(failed['status'], 'validation_failed');
  assert.equal(p.currentStep, 'desk-research');

  const retry = await p.prepare();
  assert.equal(retry['status'], 'ready_for_semantic_validation');
  const passed = await p.submit(retry);
  statuses.push(passed['status'] as string);
  assert.equal(passed['status'], 'advanced');
  assert.equal(p.currentStep, 'decision-record');

  const done = await p.passStep();
  statuses.push(done['status'] as string);
  assert.equal(done['status'], 'completed');
  return statuses;
}
