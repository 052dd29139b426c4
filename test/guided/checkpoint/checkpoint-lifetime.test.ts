/**
 * Checkpoints have a lifetime (RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE, default 30 days): an older one fails closed as
 * workflow_checkpoint_error with the reason checkpoint_expired, before any other check; a younger one verifies; a
 * forged one is the generic error whatever issue time it claims.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  CHECKPOINT_ERROR_MESSAGE,
  createGuidedEngine,
  createReleaseScope,
  DEFAULT_CHECKPOINT_MAX_AGE_MS,
  GuidedError,
} from '../../../src/guided/index.js';
import { checkpointMaxAgeMs, parseDuration } from '../../../src/cli/checkpoint-config.js';
import { begin } from '../fixtures/drive.js';
import { Session, TestClock, signerFor } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const scope = createReleaseScope(fixtureRelease());
const DAY = 86_400_000;

function failure(fn: () => unknown): { code: string; reason: string | undefined; message: string } | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (error) {
    if (!(error instanceof GuidedError)) throw error;
    return { code: error.code, reason: error.reason, message: error.message };
  }
}

test('a checkpoint older than the default 30 days is expired; a younger one continues', () => {
  assert.equal(DEFAULT_CHECKPOINT_MAX_AGE_MS, 30 * DAY);
  const session = new Session(scope);
  const pos = begin(session);
  const cont = (): unknown =>
    session.engine.continueWorkflow(scope, { checkpoint: pos.checkpoint, confirmed_state: pos.state });
  session.clock.advance(29 * DAY);
  assert.equal(failure(cont), 'ok');
  session.clock.advance(2 * DAY);
  const expired = failure(cont);
  assert.notEqual(expired, 'ok');
  assert.deepEqual(expired, {
    code: 'workflow_checkpoint_error',
    reason: 'checkpoint_expired',
    message: 'the workflow checkpoint is older than the server accepts; start the workflow again',
  });
  // prepare and submit judge the age the same way.
  const prepared = failure(() =>
    session.engine.prepareStepValidation(scope, {
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      artifacts: [],
    }),
  );
  assert.equal(prepared === 'ok' ? undefined : prepared.reason, 'checkpoint_expired');
});

test('the age is checked before anything else: an expired checkpoint with a wrong confirmed state is still expired', () => {
  const clock = new TestClock();
  const engine = createGuidedEngine({ signer: signerFor(), clock, checkpointMaxAgeMs: 60_000 });
  const session = new Session(scope, { clock, engine });
  const pos = begin(session);
  clock.advance(61_000);
  const outcome = failure(() =>
    engine.continueWorkflow(scope, { checkpoint: pos.checkpoint, confirmed_state: { objective: 'other' } }),
  );
  assert.equal(outcome === 'ok' ? undefined : outcome.reason, 'checkpoint_expired');
  // ... and against another release scope than the one it is pinned to.
  const other = createReleaseScope({ ...fixtureRelease(), release: 'other-2099.1.1' });
  const elsewhere = failure(() =>
    engine.continueWorkflow(other, { checkpoint: pos.checkpoint, confirmed_state: pos.state }),
  );
  assert.equal(elsewhere === 'ok' ? undefined : elsewhere.reason, 'checkpoint_expired');
});

test('a forged checkpoint is the generic error, never "expired", whatever its issue time says', () => {
  const clock = new TestClock();
  const engine = createGuidedEngine({ signer: signerFor(), clock, checkpointMaxAgeMs: 60_000 });
  const session = new Session(scope, { clock, engine });
  const pos = begin(session);
  clock.advance(61_000);
  const token = pos.checkpoint['token'] as string;
  const forged = { ...pos.checkpoint, token: `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}` };
  assert.deepEqual(
    failure(() => engine.continueWorkflow(scope, { checkpoint: forged, confirmed_state: pos.state })),
    { code: 'workflow_checkpoint_error', reason: undefined, message: CHECKPOINT_ERROR_MESSAGE },
  );
});

test('RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: durations like 30d, 12h, 90m, 3600s; anything else names the variable', () => {
  assert.equal(checkpointMaxAgeMs({}), 30 * DAY);
  assert.equal(checkpointMaxAgeMs({ RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: '12h' }), 12 * 3_600_000);
  assert.equal(checkpointMaxAgeMs({ RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: ' 7d ' }), 7 * DAY);
  assert.equal(checkpointMaxAgeMs({ RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: '3600s' }), 3_600_000);
  for (const bad of ['30', '30 days', '-1d', '0m', '59s', '1.5h', '9999d', 'd', '1w']) {
    assert.throws(
      () => checkpointMaxAgeMs({ RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: bad }),
      /^CommandFailed: RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE must be a duration from 1m to 3650d/,
      bad,
    );
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 99_999 }), fc.constantFrom('s', 'm', 'h', 'd'), (n, unit) => {
      const ms = parseDuration(`${n}${unit}`);
      assert.equal(ms, n * { s: 1000, m: 60_000, h: 3_600_000, d: DAY }[unit]);
    }),
  );
  fc.assert(
    fc.property(fc.string(), (text) => {
      const ms = parseDuration(text);
      if (ms !== undefined) assert.match(text.trim(), /^\d+[smhd]$/);
    }),
  );
});
