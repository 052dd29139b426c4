import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, sha256Hex } from '../../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import {
  GuidedError,
  HOST_CAPABILITY_BITS,
  VALIDATOR_CAPABILITY_BITS,
  checkpointRelease,
  createGuidedEngine,
  createReleaseScope,
} from '../../../src/guided/index.js';
import { encodeCheckpointBody } from '../../../src/guided/checkpoint/codec.js';
import { HostCapability, ValidatorCapability } from '../../../src/registry/model/release.js';
import { begin, chooseRoute, moved, passStep, prepareArgs, proceed, toRouteSelection } from '../fixtures/drive.js';
import type { Position } from '../fixtures/drive.js';
import { SECRET_A, SECRET_B, Session, TestClock, reportsFor, signerFor } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const release = fixtureRelease();
const scope = createReleaseScope(release);

function checkpointCode(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof GuidedError) return error.code;
    return `unexpected ${String(error)}`;
  }
  return 'no error';
}

/** A position at desk-research with receipts from setup (so every envelope field is populated). */
function deskResearch(session: Session): Position {
  return chooseRoute(session, toRouteSelection(session), 'desk-research');
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ';

describe('tampered checkpoint fails closed', () => {
  const session = new Session(scope);
  const pos = deskResearch(session);
  const token = pos.checkpoint['token'] as string;
  const cont = (checkpoint: JsonValue) => () =>
    session.engine.continueWorkflow(scope, { checkpoint, confirmed_state: pos.state });

  test('the untampered checkpoint verifies', () => {
    assert.equal(cont(pos.checkpoint)()['status'], 'active');
  });

  test('random byte mutations of the token always give workflow_checkpoint_error', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: token.length - 1 }),
        fc.constantFrom(...B64URL.split('')),
        fc.constantFrom('replace', 'insert', 'delete'),
        (at, ch, op) => {
          const mutated =
            op === 'replace'
              ? token.slice(0, at) + ch + token.slice(at + 1)
              : op === 'insert'
                ? token.slice(0, at) + ch + token.slice(at)
                : token.slice(0, at) + token.slice(at + 1);
          fc.pre(mutated !== token);
          assert.equal(checkpointCode(cont({ ...pos.checkpoint, token: mutated })), 'workflow_checkpoint_error');
        },
      ),
      { numRuns: 400, seed: 20261102 },
    );
  });

  test('random envelope field changes always give workflow_checkpoint_error', () => {
    const fields = Object.keys(pos.checkpoint).filter((k) => k !== 'token');
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }), (field, value) => {
        fc.pre(canonicalJson(value) !== canonicalJson(pos.checkpoint[field]));
        const changed = { ...pos.checkpoint, [field]: value as JsonValue };
        assert.equal(checkpointCode(cont(changed)), 'workflow_checkpoint_error');
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  test('removed, added and non-object envelopes fail closed too', () => {
    const { host: _host, ...withoutHost } = pos.checkpoint;
    for (const envelope of [withoutHost, { ...pos.checkpoint, extra: 1 }, null, 'x', [], { token }]) {
      assert.equal(checkpointCode(cont(envelope as JsonValue)), 'workflow_checkpoint_error');
    }
  });

  test('the error message is the same generic one whatever failed', () => {
    const messages = new Set<string>();
    for (const envelope of [
      { ...pos.checkpoint, sequence: 99 },
      { ...pos.checkpoint, token: `${token}x` },
    ]) {
      try {
        cont(envelope)();
      } catch (error) {
        messages.add((error as Error).message);
      }
    }
    assert.equal(messages.size, 1);
  });
});

describe('token kinds, keys and releases', () => {
  test('a validation-bundle token presented as a checkpoint fails, and a checkpoint token as a bundle fails', () => {
    const session = new Session(scope);
    const pos = deskResearch(session);
    const evidence = JSON.stringify({ sources: [{ title: 't', claim: 'c' }] });
    const prepared = session.prepare(prepareArgs(pos, { 'evidence-log': evidence }));
    const bundle = prepared['validation_bundle'] as JsonObject;
    const asCheckpoint = { ...pos.checkpoint, token: bundle['validation_token'] as string };
    assert.equal(
      checkpointCode(() =>
        session.engine.continueWorkflow(scope, { checkpoint: asCheckpoint, confirmed_state: pos.state }),
      ),
      'workflow_checkpoint_error',
    );
    const asBundle = { ...bundle, validation_token: pos.checkpoint['token'] as string };
    const submit = (b: JsonObject) => () =>
      session.engine.submitStepValidation(scope, {
        checkpoint: pos.checkpoint,
        confirmed_state: pos.state,
        validation_bundle: b,
        reports: [],
      });
    assert.equal(checkpointCode(submit(asBundle)), 'workflow_checkpoint_error');
    assert.equal(checkpointCode(submit({ ...bundle, step_id: 'synthesis' })), 'workflow_checkpoint_error');
  });

  test('a bundle bound to an older checkpoint is refused', () => {
    const session = new Session(scope);
    const pos = deskResearch(session);
    const args = prepareArgs(pos, { 'evidence-log': JSON.stringify({ sources: [{ title: 't', claim: 'c' }] }) });
    const prepared = session.prepare(args);
    const failed = session.submit({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      validation_bundle: prepared['validation_bundle'] as JsonObject,
      reports: (prepared['validators'] as JsonObject[]).map((v) => ({
        validator_id: v['validator_id'] as string,
        validator_version: v['validator_version'] as string,
        instruction_sha256: v['instruction_sha256'] as string,
        input_artifacts: v['input_artifacts'] as JsonValue,
        validated_by: { harness: 'claude-code', adapter_version: '1.1.0' },
        outcome: 'failed',
        findings: [],
      })),
    });
    const replay = () =>
      session.engine.submitStepValidation(scope, {
        checkpoint: failed['checkpoint'] as JsonObject,
        confirmed_state: pos.state,
        validation_bundle: prepared['validation_bundle'] as JsonObject,
        reports: [],
      });
    assert.equal(checkpointCode(replay), 'workflow_checkpoint_error');
  });

  test('key rotation: an old key in the retired ring still verifies and new tokens carry the new key id', () => {
    const clock = new TestClock();
    const old = new Session(scope, { clock });
    const pos = begin(old);
    assert.equal(pos.checkpoint['key_id'], 'key-a');
    const rotated = createGuidedEngine({ signer: signerFor('key-b', SECRET_B, { 'key-a': SECRET_A }), clock });
    const resumed = moved(pos, passStep(new Session(scope, { clock, engine: rotated }), pos));
    assert.equal(resumed.checkpoint['key_id'], 'key-b');
    const body = JSON.parse(
      Buffer.from((resumed.checkpoint['token'] as string).split('.')[0] as string, 'base64url').toString(),
    );
    assert.equal(body.key_id, 'key-b');
    const newOnly = createGuidedEngine({ signer: signerFor('key-b', SECRET_B), clock });
    assert.equal(
      checkpointCode(() => newOnly.continueWorkflow(scope, { checkpoint: pos.checkpoint, confirmed_state: pos.state })),
      'workflow_checkpoint_error',
    );
    const forged = createGuidedEngine({ signer: signerFor('key-a', SECRET_B), clock });
    assert.equal(
      checkpointCode(() => forged.continueWorkflow(scope, { checkpoint: pos.checkpoint, confirmed_state: pos.state })),
      'workflow_checkpoint_error',
    );
  });

  test('a checkpoint from another release, or from a release whose manifest changed, fails closed', () => {
    const session = new Session(scope);
    const pos = begin(session);
    const other = createReleaseScope(fixtureRelease(undefined, 'fixture-2026.2.0'));
    const edited = createReleaseScope(
      fixtureRelease((d) => {
        d.assets = d.assets.map((a) => (a.id === 'research-method' ? { ...a, content: `${a.content}\nMore.\n` } : a));
      }),
    );
    for (const target of [other, edited]) {
      const call = () =>
        session.engine.continueWorkflow(target, { checkpoint: pos.checkpoint, confirmed_state: pos.state });
      assert.equal(checkpointCode(call), 'workflow_checkpoint_error');
    }
  });

  test('the token codec has a bit for every host and validator capability', () => {
    assert.deepEqual([...HOST_CAPABILITY_BITS].sort(), Object.values(HostCapability).sort());
    assert.deepEqual([...VALIDATOR_CAPABILITY_BITS].sort(), Object.values(ValidatorCapability).sort());
  });

  test('checkpointRelease reads the pinned release name without verifying, and nothing from junk', () => {
    const pos = begin(new Session(scope));
    assert.equal(checkpointRelease({ checkpoint: pos.checkpoint }), release.release);
    for (const junk of [undefined, null, 'x', {}, { checkpoint: 1 }, { checkpoint: { registry_release: 5 } }]) {
      assert.equal(checkpointRelease(junk), undefined);
    }
  });

  test('each checkpoint names its parent by the SHA-256 of the parent token and counts its sequence', () => {
    const session = new Session(scope);
    const pos = begin(session);
    const next = passStep(session, pos)['checkpoint'] as JsonObject;
    assert.equal(next['parent_checkpoint_sha256'], sha256Hex(pos.checkpoint['token'] as string));
    assert.equal(next['sequence'], 2);
    const after = proceed(session, moved(pos, { checkpoint: next, step: null }))['checkpoint'] as JsonObject;
    assert.equal(after['parent_checkpoint_sha256'], sha256Hex(next['token'] as string));
  });
});

describe('token versions', () => {
  const session = new Session(scope);
  const pos = deskResearch(session);
  const cont = (checkpoint: JsonValue) => () =>
    session.engine.continueWorkflow(scope, { checkpoint, confirmed_state: pos.state });

  /** The same checkpoint as a server before digest-bound tokens issued it: a version 1 token of the whole state. */
  function versionOne(envelope: JsonObject): JsonObject {
    const { key_id: _keyId, token: _token, ...state } = envelope;
    return { ...envelope, token: signerFor().sign('checkpoint', encodeCheckpointBody(state as never)) };
  }

  test('new checkpoints carry a digest-bound token of about 190 characters, whatever the step', () => {
    const token = pos.checkpoint['token'] as string;
    assert.ok(token.length < 256, `${String(token.length)} characters`);
    const old = versionOne(pos.checkpoint)['token'] as string;
    assert.ok(old.length > 3 * token.length, `a version 1 token of the same state: ${String(old.length)} characters`);
  });

  test('a checkpoint issued with a version 1 token still resumes; edited, it fails closed', () => {
    const old = versionOne(pos.checkpoint);
    assert.equal(cont(old)()['status'], 'active');
    assert.equal(checkpointCode(cont({ ...old, sequence: 99 })), 'workflow_checkpoint_error');
    // A version 1 body is never read as binding another envelope by digest, nor the reverse.
    assert.equal(
      checkpointCode(cont({ ...pos.checkpoint, token: old['token'] as string, sequence: 2 })),
      'workflow_checkpoint_error',
    );
  });

  test('a version 2 token presented with another genuine checkpoint fails closed', () => {
    const other = toRouteSelection(new Session(scope));
    assert.equal(
      checkpointCode(cont({ ...other.checkpoint, token: pos.checkpoint['token'] as string })),
      'workflow_checkpoint_error',
    );
    assert.equal(
      checkpointCode(cont({ ...pos.checkpoint, token: other.checkpoint['token'] as string })),
      'workflow_checkpoint_error',
    );
  });

  test('a validation bundle issued with a version 1 token is still accepted at submit; edited, it fails closed', () => {
    const fresh = new Session(scope);
    const at = deskResearch(fresh);
    const prepared = fresh.prepare(prepareArgs(at));
    const { key_id: _keyId, validation_token: _token, ...members } = prepared['validation_bundle'] as JsonObject;
    const token = signerFor().sign('validation-bundle', { schema: 'rimthan.validation-bundle/1', ...members });
    const old = { ...(prepared['validation_bundle'] as JsonObject), validation_token: token };
    const submit = (bundle: JsonObject) => () =>
      fresh.engine.submitStepValidation(scope, {
        checkpoint: at.checkpoint,
        confirmed_state: at.state,
        validation_bundle: bundle,
        reports: reportsFor(prepared, at.checkpoint),
      });
    assert.equal(checkpointCode(submit({ ...old, step_id: 'decision-record' })), 'workflow_checkpoint_error');
    assert.equal(submit(old)()['status'], 'advanced');
  });
});
