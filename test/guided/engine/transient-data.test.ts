import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import type { JsonObject } from '../../../src/core/index.js';
import { createReleaseScope } from '../../../src/guided/index.js';
import { OBJECTIVE, chooseRoute, moved, prepareArgs, toRouteSelection } from '../fixtures/drive.js';
import { Session, reportsFor } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const MARKER = 'PARTICIPANT-MARKER-5b1e0c7d';

function decoded(token: string): string {
  return Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8');
}

test('participant artifacts and findings are transient and not checkpointed', () => {
  const release = fixtureRelease();
  const scope = createReleaseScope(release);
  const session = new Session(scope);
  let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
  const signed: string[] = [];
  const keep = (checkpoint: JsonObject): void => {
    signed.push(JSON.stringify(checkpoint), decoded(checkpoint['token'] as string));
  };
  keep(pos.checkpoint);

  const evidence = JSON.stringify({ sources: [{ title: 'Interview notes', claim: `${MARKER} says batch is fine` }] });
  const prepared = session.prepare(prepareArgs(pos, { 'evidence-log': evidence }));
  assert.equal(prepared['status'], 'ready_for_semantic_validation');
  const bundle = prepared['validation_bundle'] as JsonObject;
  signed.push(JSON.stringify(prepared), decoded(bundle['validation_token'] as string));

  const failed = session.submit({
    checkpoint: pos.checkpoint,
    confirmed_state: pos.state,
    validation_bundle: bundle,
    reports: reportsFor(prepared, pos.checkpoint, {
      'source-check': { outcome: 'failed', findings: [{ severity: 'error', message: `${MARKER} is not a source` }] },
    }),
  });
  assert.equal(failed['status'], 'validation_failed');
  // Findings go back to the caller that submitted them, and nowhere else.
  assert.ok(JSON.stringify(failed['findings']).includes(MARKER));
  keep(failed['checkpoint'] as JsonObject);
  pos = moved(pos, failed);
  assert.equal(pos.checkpoint['current_step'], 'desk-research');

  for (const text of signed) {
    assert.ok(!text.includes(MARKER), 'no marker in bundles or checkpoints');
    assert.ok(!text.includes('nightly batch'), 'no objective in bundles or checkpoints');
  }
  const held = inspect([session.engine, scope], { depth: Infinity, showHidden: true, getters: true });
  assert.ok(!held.includes(MARKER), 'the engine and scope hold no participant data');
  assert.ok(!held.includes(OBJECTIVE));
  assert.ok(!JSON.stringify(release).includes(MARKER), 'the release is untouched');
});
