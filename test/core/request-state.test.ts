import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  KeyRing,
  RequestStateCodec,
  RequestStateError,
  TokenSigner,
  canonicalJson,
  sha256Hex,
} from '../../src/core/index.js';
import type { Clock, JsonObject, RequestStateCall } from '../../src/core/index.js';

const ring = new KeyRing({ activeKeyId: 'k1', activeSecret: 'a'.repeat(32) });
const signer = new TokenSigner(ring);

function movableClock(start = Date.parse('2026-12-02T06:00:00.000Z')): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

const CALL: RequestStateCall = {
  tool: 'rimthan.continue_workflow',
  arguments: { checkpoint: { token: 'abc' }, confirmed_state: { state: { objective: 'x' }, confirmations: {} } },
  principalId: 'user:alice',
};
const PENDING = { key: 'research_route', sha256: sha256Hex('the question') };

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RequestStateError, `expected RequestStateError, got ${String(error)}`);
    assert.equal(error.code, 'request_state_invalid');
    return error.reason;
  }
  return 'accepted';
}

describe('request-state tokens', () => {
  test('a token verifies for the very call it was issued for and yields the pending question', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const token = codec.issue(CALL, PENDING);
    const verified = codec.verify(token, CALL);
    assert.deepEqual(verified.pending, PENDING);
  });

  test('the token holds digests only: no argument value or principal id appears in it', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const secret = 'participant-objective-marker-7d1f';
    const token = codec.issue(
      { ...CALL, arguments: { ...CALL.arguments, objective: secret }, principalId: 'user:secret-bob' },
      PENDING,
    );
    const body = Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8');
    assert.ok(!body.includes(secret));
    assert.ok(!body.includes('secret-bob'));
  });

  test('argument order does not matter (canonical JSON), any other value does', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const token = codec.issue(CALL, PENDING);
    const reordered: JsonObject = { confirmed_state: CALL.arguments['confirmed_state']!, checkpoint: { token: 'abc' } };
    assert.equal(
      reasonOf(() => codec.verify(token, { ...CALL, arguments: reordered })),
      'accepted',
    );
    const other: JsonObject = { ...CALL.arguments, checkpoint: { token: 'abd' } };
    assert.equal(
      reasonOf(() => codec.verify(token, { ...CALL, arguments: other })),
      'other_arguments',
    );
  });

  test('refused after its lifetime, accepted just before', () => {
    const clock = movableClock();
    const codec = new RequestStateCodec(signer, clock, 10 * 60 * 1000);
    const token = codec.issue(CALL, PENDING);
    clock.advance(10 * 60 * 1000 - 1);
    assert.equal(
      reasonOf(() => codec.verify(token, CALL)),
      'accepted',
    );
    clock.advance(1);
    assert.equal(
      reasonOf(() => codec.verify(token, CALL)),
      'expired',
    );
  });

  test('a verifier with a shorter lifetime refuses an older token the issuer allowed longer', () => {
    const clock = movableClock();
    const token = new RequestStateCodec(signer, clock, 60 * 60 * 1000).issue(CALL, PENDING);
    clock.advance(11 * 60 * 1000);
    assert.equal(
      reasonOf(() => new RequestStateCodec(signer, clock).verify(token, CALL)),
      'expired',
    );
  });

  test('another tool, another principal, or none where there was one: each refused with its reason', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const token = codec.issue(CALL, PENDING);
    assert.equal(
      reasonOf(() => codec.verify(token, { ...CALL, tool: 'rimthan.start_workflow' })),
      'other_tool',
    );
    assert.equal(
      reasonOf(() => codec.verify(token, { ...CALL, principalId: 'user:mallory' })),
      'other_principal',
    );
    assert.equal(
      reasonOf(() => codec.verify(token, { ...CALL, principalId: undefined })),
      'other_principal',
    );
    const anonymous = codec.issue({ ...CALL, principalId: undefined }, PENDING);
    assert.equal(
      reasonOf(() => codec.verify(anonymous, { ...CALL, principalId: undefined })),
      'accepted',
    );
    assert.equal(
      reasonOf(() => codec.verify(anonymous, CALL)),
      'other_principal',
    );
  });

  test('a checkpoint or validation-bundle token is never a request state, nor the reverse', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const checkpoint = signer.sign('checkpoint', { schema: 'rimthan.request-state/1' });
    assert.equal(
      reasonOf(() => codec.verify(checkpoint, CALL)),
      'wrong_kind',
    );
    const bundle = signer.sign('validation-bundle', {});
    assert.equal(
      reasonOf(() => codec.verify(bundle, CALL)),
      'wrong_kind',
    );
    const token = codec.issue(CALL, PENDING);
    assert.equal(signer.verify('checkpoint', token).ok, false);
  });

  test('a token signed by a key outside the ring is tampered; one from a retired key still verifies', () => {
    const other = new TokenSigner(new KeyRing({ activeKeyId: 'k1', activeSecret: 'z'.repeat(32) }));
    const foreign = new RequestStateCodec(other, movableClock()).issue(CALL, PENDING);
    assert.equal(
      reasonOf(() => new RequestStateCodec(signer, movableClock()).verify(foreign, CALL)),
      'tampered',
    );
    const rotated = new TokenSigner(
      new KeyRing({ activeKeyId: 'k2', activeSecret: 'b'.repeat(32), retired: { k1: 'a'.repeat(32) } }),
    );
    const old = new RequestStateCodec(signer, movableClock()).issue(CALL, PENDING);
    assert.equal(
      reasonOf(() => new RequestStateCodec(rotated, movableClock()).verify(old, CALL)),
      'accepted',
    );
  });

  test('a validly signed body of the wrong shape is malformed', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const now = Date.parse('2026-12-02T06:00:00.000Z');
    const base = {
      schema: 'rimthan.request-state/1',
      tool: CALL.tool,
      arguments_sha256: sha256Hex(canonicalJson(CALL.arguments)),
      principal_sha256: null,
      pending_key: 'research_route',
      pending_sha256: PENDING.sha256,
      issued_at: now,
      expires_at: now + 1000,
    };
    assert.equal(
      reasonOf(() => codec.verify(signer.sign('request-state', base), { ...CALL, principalId: undefined })),
      'accepted',
    );
    for (const broken of [
      { ...base, extra: 1 },
      { ...base, schema: 'rimthan.request-state/2' },
      { ...base, pending_sha256: 'ABC' },
      { ...base, expires_at: now },
      { ...base, tool: '' },
    ]) {
      assert.equal(
        reasonOf(() => codec.verify(signer.sign('request-state', broken), CALL)),
        'malformed',
      );
    }
    assert.equal(
      reasonOf(() => codec.verify(42, CALL)),
      'malformed',
    );
  });

  test('property: any single-character mutation of a valid token is refused', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const token = codec.issue(CALL, PENDING);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/';
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: token.length - 1 }),
        fc.constantFrom(...alphabet),
        fc.constantFrom('replace', 'insert', 'delete'),
        (index, char, op) => {
          const mutated =
            op === 'replace'
              ? token.slice(0, index) + char + token.slice(index + 1)
              : op === 'insert'
                ? token.slice(0, index) + char + token.slice(index)
                : token.slice(0, index) + token.slice(index + 1);
          fc.pre(mutated !== token);
          assert.notEqual(
            reasonOf(() => codec.verify(mutated, CALL)),
            'accepted',
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  test('property: reuse with any other arguments is refused as other_arguments', () => {
    const codec = new RequestStateCodec(signer, movableClock());
    const args = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
    fc.assert(
      fc.property(args, args, (a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        const token = codec.issue({ ...CALL, arguments: a as JsonObject }, PENDING);
        assert.equal(
          reasonOf(() => codec.verify(token, { ...CALL, arguments: a as JsonObject })),
          'accepted',
        );
        assert.equal(
          reasonOf(() => codec.verify(token, { ...CALL, arguments: b as JsonObject })),
          'other_arguments',
        );
      }),
      { numRuns: 200 },
    );
  });
});
