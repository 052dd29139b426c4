import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sha256Hex } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { GuidedError, createReleaseScope } from '../../../src/guided/index.js';
import type { ReleaseScope } from '../../../src/guided/index.js';
import { chooseRoute, moved, passStep, toRouteSelection } from '../fixtures/drive.js';
import type { Position } from '../fixtures/drive.js';
import { Session, confirmed, hostDeclaration } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const source = createReleaseScope(fixtureRelease());
const target = createReleaseScope(fixtureRelease(undefined, 'fixture-2026.2.0', ['1.2.0', '1.3.0']));

/** A checkpoint at synthesis (so it holds artifact and validator receipts). */
function atSynthesis(session: Session): Position {
  const pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
  session.clock.advance(10 * 60_000); // the synthesis checkpoint is issued well after every confirmation
  return moved(pos, passStep(session, pos));
}

function migrate(
  session: Session,
  pos: Position,
  opts: { confirm: boolean; reconfirm: boolean; version?: string; release?: string },
  to?: ReleaseScope,
) {
  const reconfirmed = confirmed(pos.state['state'] as JsonObject, session.clock.iso());
  return session.continue(
    {
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      ...(opts.reconfirm ? { next_confirmed_state: reconfirmed } : {}),
      migration: {
        target_release: opts.release ?? 'fixture-2026.2.0',
        workflow_version: opts.version ?? '1.3.0',
        host: hostDeclaration('claude-code'),
        confirm: opts.confirm,
      },
    },
    to,
  );
}

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof GuidedError && error.code === 'workflow_protocol_error');
    return error.reason;
  }
  return undefined;
}

describe('checkpoint migration', () => {
  test('previews the impact, then restarts at setup-workspace in the target release with the old checkpoint as parent', () => {
    const session = new Session(source);
    const pos = atSynthesis(session);
    session.clock.advance(60_000);

    const preview = migrate(session, pos, { confirm: false, reconfirm: true }, target);
    assert.equal(preview['status'], 'blocked');
    assert.deepEqual(
      (preview['blockers'] as JsonObject[]).map((b) => b['code']),
      ['migration_confirmation_required'],
    );
    assert.equal((preview['checkpoint'] as JsonObject)['token'], pos.checkpoint['token'], 'checkpoint unchanged');
    const impact = preview['migration'] as JsonObject;
    assert.deepEqual(impact['invalidated_artifacts'], ['evidence-log', 'workspace-manifest']);
    assert.deepEqual(impact['invalidated_validators'], ['evidence-check@1.0.0', 'source-check@1.0.0']);
    assert.deepEqual((impact['target'] as JsonObject)['step'], 'setup-workspace');
    assert.equal(impact['confirmed'], false);

    const done = migrate(session, pos, { confirm: true, reconfirm: true }, target);
    assert.equal(done['status'], 'active');
    const restarted = done['checkpoint'] as JsonObject;
    assert.equal(restarted['registry_release'], 'fixture-2026.2.0');
    assert.deepEqual(restarted['workflow'], { id: 'research-decision', version: '1.3.0' });
    assert.equal(restarted['current_step'], 'setup-workspace');
    assert.equal(restarted['parent_checkpoint_sha256'], sha256Hex(pos.checkpoint['token'] as string));
    assert.deepEqual(restarted['artifacts'], {});
    assert.deepEqual(restarted['validators'], {});
    assert.equal(((done['step'] as JsonObject)['step'] as JsonObject)['id'], 'setup-workspace');
    assert.equal((done['migration'] as JsonObject)['confirmed'], true);

    // The restarted checkpoint now runs against the target release, and no longer against the source.
    const next = {
      checkpoint: restarted,
      confirmed_state: confirmed(pos.state['state'] as JsonObject, session.clock.iso()),
    };
    assert.equal(session.engine.continueWorkflow(target, next)['status'], 'active');
    assert.throws(() => session.engine.continueWorkflow(source, next), { code: 'workflow_checkpoint_error' });
  });

  test('every target field must be re-confirmed after the checkpoint', () => {
    const session = new Session(source);
    const pos = atSynthesis(session);
    session.clock.advance(60_000);
    const stale = migrate(session, pos, { confirm: true, reconfirm: false }, target);
    assert.equal(stale['status'], 'blocked');
    assert.deepEqual(
      (stale['blockers'] as JsonObject[]).map((b) => [b['code'], b['field']]),
      [
        ['confirmation_required', 'decision_owner'],
        ['confirmation_required', 'objective'],
        ['confirmation_required', 'research_route'],
      ],
    );
  });

  test('the target host declaration must pass the target blockers', () => {
    const session = new Session(source);
    const pos = atSynthesis(session);
    const result = session.continue(
      {
        checkpoint: pos.checkpoint,
        confirmed_state: pos.state,
        next_confirmed_state: confirmed(pos.state['state'] as JsonObject, session.clock.iso()),
        migration: {
          target_release: 'fixture-2026.2.0',
          workflow_version: '1.3.0',
          host: hostDeclaration('claude-code', { adapter: { id: 'claude-code-adapter', version: '1.0.0' } }),
          confirm: true,
        },
      },
      target,
    );
    assert.equal(result['status'], 'blocked');
    assert.equal((result['blockers'] as JsonObject[])[0]?.['code'], 'host_adapter_binding_mismatch');
  });

  test('migration is refused without a verified target, to a different target, to the same release or to an older version', () => {
    const session = new Session(source);
    const pos = atSynthesis(session);
    assert.equal(
      reason(() => migrate(session, pos, { confirm: true, reconfirm: true })),
      'migration_unavailable',
    );
    assert.equal(
      reason(() => migrate(session, pos, { confirm: true, reconfirm: true, release: 'fixture-2026.9.0' }, target)),
      'migration_target_mismatch',
    );
    assert.equal(
      reason(() =>
        migrate(
          session,
          pos,
          { confirm: true, reconfirm: true, release: 'fixture-2026.1.0', version: '1.2.0' },
          source,
        ),
      ),
      'migration_not_newer',
    );
    assert.equal(
      reason(() => migrate(session, pos, { confirm: true, reconfirm: true, version: '1.2.0' }, target)),
      'migration_not_newer',
    );
  });

  test('a newer version is checked before a different release, as the spec lists them', () => {
    // One release holding both versions: the checkpoint pins 1.2.0 and the request names 1.3.0 of the same release.
    const dual = createReleaseScope(fixtureRelease(undefined, 'fixture-2026.3.0', ['1.2.0', '1.3.0']));
    const session = new Session(dual);
    const state = confirmed({ objective: 'Pick a vendor', decision_owner: 'ops-lead' }, session.clock.iso());
    const started = session.start({
      workflow: 'research-decision',
      workflow_version: '1.2.0',
      confirmed_state: state,
      host: hostDeclaration('claude-code'),
    });
    assert.equal(started['status'], 'active');
    const pos: Position = { checkpoint: started['checkpoint'] as JsonObject, state, step: null };
    session.clock.advance(60_000);
    const same = { confirm: true, reconfirm: true, release: 'fixture-2026.3.0' };
    assert.equal(
      reason(() => migrate(session, pos, { ...same, version: '1.3.0' }, dual)),
      'migration_same_release',
    );
    // Same release and not newer: the version rule comes first.
    assert.equal(
      reason(() => migrate(session, pos, { ...same, version: '1.2.0' }, dual)),
      'migration_not_newer',
    );
  });
});
