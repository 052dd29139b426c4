import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import type { StepDefinition } from '../../../src/registry/model/release.js';
import { chooseRoute, moved, passStep, proceed, stepId, toRouteSelection } from '../fixtures/drive.js';
import { Session } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

/** The fixture workflow with a branch back: after synthesis the workflow returns to route-selection. */
const looping = fixtureRelease((d) => {
  d.workflows = d.workflows.map((w) => ({
    ...w,
    steps: w.steps.map((s): StepDefinition => (s.id === 'synthesis' ? { ...s, next: 'route-selection' } : s)),
  }));
});

describe('a gated step reached again', () => {
  test('is not advanced merely by calling continue_workflow: its outputs must be produced and validated anew', () => {
    const session = new Session(looping);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    assert.equal(stepId(pos), 'desk-research');
    pos = moved(pos, passStep(session, pos));
    assert.equal(stepId(pos), 'synthesis');
    pos = moved(pos, passStep(session, pos));
    assert.equal(stepId(pos), 'route-selection');
    // The confirmed route still says desk-research, so the branch leads back to it.
    pos = moved(pos, proceed(session, pos));
    assert.equal(stepId(pos), 'desk-research');
    assert.equal(Object.hasOwn(pos.checkpoint['artifacts'] as JsonObject, 'evidence-log'), false);

    const again = proceed(session, pos);
    assert.equal(again['status'], 'active');
    assert.equal((again['checkpoint'] as JsonObject)['current_step'], 'desk-research', 'the gated step is kept');
    assert.equal(((again['step'] as JsonObject)['step'] as JsonObject)['id'], 'desk-research');

    // Producing and validating the outputs again moves on as before.
    pos = moved(pos, passStep(session, pos));
    assert.equal(stepId(pos), 'synthesis');
  });
});

/** A review step with a validator and no outputs after desk-research, whose validator desk-research already ran. */
const reviewed = fixtureRelease((d) => {
  d.workflows = d.workflows.map((w) => ({
    ...w,
    steps: w.steps
      .map((s): StepDefinition => (s.id === 'desk-research' ? { ...s, next: 'review' } : s))
      .concat([
        {
          id: 'review',
          title: 'Review the evidence',
          instruction: { id: 'synthesis-instruction', version: '1.0.0' },
          host_assets: [],
          inputs: ['evidence-log'],
          outputs: [],
          validators: [{ id: 'evidence-check', version: '1.0.0' }],
          next: 'synthesis',
        },
      ]),
  }));
});

describe('a gated step without outputs', () => {
  test('is not passed on the strength of a receipt its validator earned in an earlier step', () => {
    const session = new Session(reviewed);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    pos = moved(pos, passStep(session, pos));
    assert.equal(stepId(pos), 'review');
    const receipts = pos.checkpoint['validators'] as JsonObject;
    assert.equal(Object.hasOwn(receipts, 'evidence-check@1.0.0'), false, 'entering review drops its validator receipt');
    assert.equal(Object.hasOwn(receipts, 'source-check@1.0.0'), true, 'receipts of other validators stay');

    const again = proceed(session, pos);
    assert.equal(again['status'], 'active');
    assert.equal((again['checkpoint'] as JsonObject)['current_step'], 'review', 'continue does not skip review');

    pos = moved(pos, passStep(session, pos));
    assert.equal(stepId(pos), 'synthesis', 'preparing and submitting review moves on');
  });
});
