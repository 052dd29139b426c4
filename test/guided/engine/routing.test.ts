import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { GuidedError, createReleaseScope } from '../../../src/guided/index.js';
import { OBJECTIVE, chooseRoute, moved, proceed, toRouteSelection } from '../fixtures/drive.js';
import { Session, confirmed, hostDeclaration } from '../fixtures/harness.js';
import { WORKFLOW_ID, fixtureRelease } from '../fixtures/release.js';

const scope = createReleaseScope(fixtureRelease());

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof GuidedError && error.code === 'workflow_protocol_error', String(error));
    return error.reason;
  }
  assert.fail('expected a workflow_protocol_error');
}

describe('routing and confirmed state', () => {
  test('route selection asks its question until research_route is confirmed, then advances to the chosen route', () => {
    const session = new Session(scope);
    const pos = toRouteSelection(session);
    for (let i = 0; i < 2; i++) {
      const asked = proceed(session, pos);
      assert.equal(asked['status'], 'input_required');
      assert.equal(asked['step'], null);
      const question = asked['question'] as JsonObject;
      assert.equal(question['field'], 'research_route');
      assert.deepEqual(
        (question['options'] as JsonObject[]).map((o) => o['value']),
        ['desk-research', 'user-interviews'],
      );
      assert.equal(
        (asked['checkpoint'] as JsonObject)['token'],
        pos.checkpoint['token'],
        'the checkpoint is unchanged',
      );
    }

    // An answer without a contemporaneous confirmation keeps the same checkpoint, blocked.
    session.clock.advance(10 * 60_000);
    const state = pos.state['state'] as JsonObject;
    const stale = confirmed({ ...state, research_route: 'desk-research' }, '2026-11-02T08:00:00.000Z', pos.state);
    const blocked = proceed(session, pos, stale);
    assert.equal(blocked['status'], 'blocked');
    assert.deepEqual(blocked['blockers'], [{ code: 'confirmation_required', field: 'research_route' }]);
    assert.equal((blocked['checkpoint'] as JsonObject)['token'], pos.checkpoint['token']);
    const unconfirmed = {
      state: { ...state, research_route: 'desk-research' },
      confirmations: pos.state['confirmations'] as JsonObject,
    };
    assert.deepEqual(proceed(session, pos, unconfirmed)['blockers'], [
      { code: 'confirmation_required', field: 'research_route' },
    ]);

    const desk = chooseRoute(session, pos, 'desk-research');
    assert.equal(desk.checkpoint['current_step'], 'desk-research');
    assert.equal(((desk.step as JsonObject)['step'] as JsonObject)['id'], 'desk-research');
    const other = chooseRoute(session, pos, 'user-interviews');
    assert.equal(other.checkpoint['current_step'], 'interview-plan');
  });

  test('a changed value of an already confirmed field needs a new confirmation too', () => {
    const session = new Session(scope);
    const pos = toRouteSelection(session);
    session.clock.advance(10 * 60_000);
    const state = pos.state['state'] as JsonObject;
    const changed = confirmed({ ...state, objective: 'Something else entirely' }, session.clock.iso(), pos.state);
    const result = proceed(session, pos, changed);
    assert.deepEqual(result['blockers'], [{ code: 'confirmation_required', field: 'objective' }]);
  });

  test('a confirmed state change at a gated step re-issues the checkpoint on the same step', () => {
    const session = new Session(scope);
    const pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    session.clock.advance(1000);
    const next = confirmed({ ...(pos.state['state'] as JsonObject), decision_owner: 'cto' }, session.clock.iso());
    const result = proceed(session, pos, next);
    assert.equal(result['status'], 'active');
    const checkpoint = result['checkpoint'] as JsonObject;
    assert.equal(checkpoint['current_step'], 'desk-research');
    assert.equal(checkpoint['sequence'], (pos.checkpoint['sequence'] as number) + 1);
    assert.notEqual(checkpoint['confirmed_state_sha256'], pos.checkpoint['confirmed_state_sha256']);
    const again = proceed(session, moved(pos, result, next));
    assert.equal((again['checkpoint'] as JsonObject)['current_step'], 'desk-research');
  });

  test('confirmed state must match the checkpoint digest, the workflow schema, and keep its fields', () => {
    const session = new Session(scope);
    const pos = toRouteSelection(session);
    const state = pos.state['state'] as JsonObject;
    const other = confirmed({ ...state, objective: 'x' }, session.clock.iso());
    assert.equal(
      reason(() => session.engine.continueWorkflow(scope, { checkpoint: pos.checkpoint, confirmed_state: other })),
      'confirmed_state_mismatch',
    );
    const invalid = confirmed({ ...state, research_route: 'astrology' }, session.clock.iso(), pos.state);
    assert.equal(
      reason(() => proceed(session, pos, invalid)),
      'confirmed_state_schema_failed',
    );
    const desk = chooseRoute(session, pos, 'desk-research');
    const { research_route: _route, ...fewer } = desk.state['state'] as JsonObject;
    const removed = confirmed(fewer, session.clock.iso(), desk.state);
    assert.equal(
      reason(() => proceed(session, desk, removed)),
      'confirmed_state_field_removed',
    );
  });

  test('start requires every initial field to be confirmed by the participant, and not in the future', () => {
    const session = new Session(scope);
    const host = hostDeclaration();
    const missing = session.start({
      workflow: WORKFLOW_ID,
      confirmed_state: {
        state: { objective: OBJECTIVE, decision_owner: 'ops-lead' },
        confirmations: { objective: { confirmed_by: 'participant', confirmed_at: session.clock.iso() } },
      },
      host,
    });
    assert.equal(missing['status'], 'blocked');
    assert.deepEqual(missing['blockers'], [{ code: 'confirmation_required', field: 'decision_owner' }]);
    const future = session.start({
      workflow: WORKFLOW_ID,
      confirmed_state: confirmed({ objective: OBJECTIVE, decision_owner: 'ops-lead' }, '2027-01-01T00:00:00Z'),
      host,
    });
    assert.equal((future['blockers'] as JsonObject[]).length, 2);
  });

  test('start selects by ID or alias, the newest version unless one is named', () => {
    const session = new Session(scope);
    const state = confirmed({ objective: OBJECTIVE, decision_owner: 'ops-lead' }, session.clock.iso());
    const host = hostDeclaration();
    const byAlias = session.start({ workflow: 'research', confirmed_state: state, host });
    assert.deepEqual((byAlias['checkpoint'] as JsonObject)['workflow'], { id: WORKFLOW_ID, version: '1.2.0' });
    const pinned = session.start({ workflow: WORKFLOW_ID, workflow_version: '1.1.0', confirmed_state: state, host });
    assert.deepEqual((pinned['checkpoint'] as JsonObject)['workflow'], { id: WORKFLOW_ID, version: '1.1.0' });
    assert.equal(
      reason(() => session.start({ workflow: 'no-such-workflow', confirmed_state: state, host })),
      'unknown_workflow',
    );
    assert.equal(
      reason(() => session.start({ workflow: WORKFLOW_ID, workflow_version: '3.0.0', confirmed_state: state, host })),
      'unknown_workflow_version',
    );
  });
});
