import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { KeyRing, RimthanError, TokenSigner } from '../../src/core/index.js';

const SECRET_A = 'a'.repeat(32);
const SECRET_B = 'b-secret-that-is-long-enough-32by';
const signer = new TokenSigner(new KeyRing({ activeKeyId: 'k1', activeSecret: SECRET_A }));

function flip(token: string, index: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
  const c = token[index] ?? 'A';
  const next = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length] ?? 'A';
  return token.slice(0, index) + next + token.slice(index + 1);
}

describe('signed tokens', () => {
  test('HMAC-SHA256 matches RFC 4231 test case 2 (the primitive the tokens use)', () => {
    const mac = createHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex');
    assert.equal(mac, '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  test('round-trips and binds key id and kind into the signed body', () => {
    const token = signer.sign('checkpoint', { step: 'setup-workspace', sequence: 1 });
    const r = signer.verify('checkpoint', token);
    assert.ok(r.ok);
    assert.equal(r.keyId, 'k1');
    assert.equal(r.body['token_kind'], 'checkpoint');
    assert.equal(r.body['step'], 'setup-workspace');
  });

  test('a key that merely ends in "__proto__ is not a prototype key', () => {
    const token = signer.sign('checkpoint', { 'x"__proto__': 1 });
    assert.equal(signer.verify('checkpoint', token).ok, true);
  });

  test('the signer alone sets key_id and token_kind', () => {
    const refused = (e: unknown) => e instanceof RimthanError && e.code === 'invalid_json';
    assert.throws(() => signer.sign('checkpoint', { key_id: 'k2' }), refused);
    assert.throws(() => signer.sign('checkpoint', { token_kind: 'validation-bundle' }), refused);
  });

  test('a token of one kind is never accepted as another', () => {
    const bundle = signer.sign('validation-bundle', { step: 'x' });
    assert.deepEqual(signer.verify('checkpoint', bundle), { ok: false, reason: 'wrong_kind' });
    const checkpoint = signer.sign('checkpoint', { step: 'x' });
    assert.deepEqual(signer.verify('validation-bundle', checkpoint), { ok: false, reason: 'wrong_kind' });
  });

  test('known attack classes fail closed', () => {
    const token = signer.sign('checkpoint', { a: 1 });
    const [body, sig] = token.split('.') as [string, string];
    const forge = (payload: string | Buffer) => {
      const encoded = Buffer.from(payload).toString('base64url');
      return `${encoded}.${createHmac('sha256', SECRET_A).update(encoded).digest('base64url')}`;
    };
    const attacks: [string, string][] = [
      ['empty', ''],
      ['no signature', body],
      ['empty signature', `${body}.`],
      ['truncated signature', `${body}.${sig.slice(0, 42)}`],
      ['padded signature', `${body}.${sig}=`],
      ['two dots', `${body}.${sig}.x`],
      ['non-canonical base64url (trailing bits)', `${body}.${sig.slice(0, 42)}${sig.endsWith('A') ? 'B' : 'A'}`],
      ['standard base64 alphabet', `${body.replace(/-/g, '+').replace(/_/g, '/')}+.${sig}`],
      ['oversized', `${'A'.repeat(20000)}.${sig}`],
      ['duplicate keys', forge('{"a":1,"a":1,"key_id":"k1","token_kind":"checkpoint"}')],
      ['non-canonical body', forge('{"token_kind":"checkpoint","key_id":"k1","a":1}')],
      ['deep nesting', forge(`{"a":${'['.repeat(20)}${']'.repeat(20)},"key_id":"k1","token_kind":"checkpoint"}`)],
      ['not an object', forge('[1]')],
      // Signed with the active secret but naming another key: the signature does not belong to the named key.
      ['key id of another key', forge('{"a":1,"key_id":"k2","token_kind":"checkpoint"}')],
      ['lone surrogate', forge('{"a":"\\ud800","key_id":"k1","token_kind":"checkpoint"}')],
      ['out-of-range number', forge('{"a":1e999,"key_id":"k1","token_kind":"checkpoint"}')],
      ['invalid UTF-8', forge(Buffer.from('{"a":"\xff","key_id":"k1","token_kind":"checkpoint"}', 'latin1'))],
      ['byte order mark', forge('\ufeff{"a":1,"key_id":"k1","token_kind":"checkpoint"}')],
      ['prototype key', forge('{"__proto__":{"x":1},"a":1,"key_id":"k1","token_kind":"checkpoint"}')],
      ['nested prototype key', forge('{"a":{"__proto__":1},"key_id":"k1","token_kind":"checkpoint"}')],
      ['escaped prototype key', forge('{"\\u005f_proto__":1,"a":1,"key_id":"k1","token_kind":"checkpoint"}')],
      ['unknown key id', signWith('k9', SECRET_A)],
      ['wrong secret', signWith('k1', SECRET_B)],
    ];
    for (const [name, attack] of attacks) {
      const r = signer.verify('checkpoint', attack);
      assert.equal(r.ok, false, name);
    }
    // An unknown key id answers exactly like a bad signature.
    assert.deepEqual(
      signer.verify('checkpoint', signWith('k9', SECRET_A)),
      signer.verify('checkpoint', signWith('k1', SECRET_B)),
    );
  });

  test('property: any single-character change of a token fails verification', () => {
    const token = signer.sign('checkpoint', { workflow: 'research-decision', sequence: 7, digest: 'f'.repeat(64) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: token.length - 1 }), (index) => {
        assert.equal(signer.verify('checkpoint', flip(token, index)).ok, false);
      }),
      { numRuns: 500 },
    );
  });

  test('key rotation: retired keys still verify, new tokens use the active key', () => {
    const oldSigner = new TokenSigner(new KeyRing({ activeKeyId: 'old', activeSecret: SECRET_A }));
    const oldToken = oldSigner.sign('checkpoint', { n: 1 });
    const rotated = new TokenSigner(
      new KeyRing({ activeKeyId: 'new', activeSecret: SECRET_B, retired: { old: SECRET_A } }),
    );
    const r = rotated.verify('checkpoint', oldToken);
    assert.ok(r.ok);
    assert.equal(r.keyId, 'old');
    const fresh = rotated.verify('checkpoint', rotated.sign('checkpoint', { n: 2 }));
    assert.ok(fresh.ok);
    assert.equal(fresh.keyId, 'new');
    // A body naming the retired key but signed with the active secret is refused: the key id is part of what is signed.
    const encoded = Buffer.from('{"key_id":"old","n":3,"token_kind":"checkpoint"}').toString('base64url');
    const misattributed = `${encoded}.${createHmac('sha256', SECRET_B).update(encoded).digest('base64url')}`;
    assert.deepEqual(rotated.verify('checkpoint', misattributed), { ok: false, reason: 'invalid_signature' });
    // Renaming the active key while keeping its secret: tokens naming the old id still verify, under that id.
    const renamed = new TokenSigner(
      new KeyRing({ activeKeyId: 'renamed', activeSecret: SECRET_A, retired: { old: SECRET_A } }),
    );
    const kept = renamed.verify('checkpoint', oldToken);
    assert.ok(kept.ok);
    assert.equal(kept.keyId, 'old');
    const dropped = new TokenSigner(new KeyRing({ activeKeyId: 'new', activeSecret: SECRET_B }));
    assert.equal(dropped.verify('checkpoint', oldToken).ok, false);
  });

  test('key ring configuration fails closed', () => {
    const bad = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof RimthanError);
    bad(() => new KeyRing({ activeKeyId: 'k', activeSecret: 'short' }));
    bad(() => new KeyRing({ activeKeyId: 'k', activeSecret: SECRET_A, retired: { k: SECRET_B } }));
    const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`r${i}`, SECRET_B]));
    bad(() => new KeyRing({ activeKeyId: 'k', activeSecret: SECRET_A, retired: seventeen }));
    bad(() => KeyRing.fromEnv({}));
    bad(() =>
      KeyRing.fromEnv({
        RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET_A,
        RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON: '{"x":1}',
      }),
    );
    bad(() =>
      KeyRing.fromEnv({
        RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET_A,
        RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'k1',
        RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON: `{"k1":"${SECRET_B}"}`,
      }),
    );
    const ring = KeyRing.fromEnv({
      RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET_A,
      RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'k2',
      RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON: `{"k1":"${SECRET_B}"}`,
    });
    assert.equal(ring.activeKeyId, 'k2');
  });
});

function signWith(keyId: string, secret: string): string {
  return new TokenSigner(new KeyRing({ activeKeyId: keyId, activeSecret: secret })).sign('checkpoint', { a: 1 });
}
