import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { exportSPKI, importJWK, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';
import {
  bearerChallenge,
  JwksCache,
  jwtAuthenticator,
  parseJwksLocation,
  principalIdOf,
  requireScope,
} from '../../src/identity/index.js';
import type { AuthOutcome, Authenticator } from '../../src/identity/index.js';
import { accessToken, AUDIENCE, ISSUER, jwksOf, serveJwks, signingKey, unsecuredToken } from './jwt-support.js';

function refusal(outcome: AuthOutcome): [number, string | undefined] | 'accepted' {
  return outcome.ok ? 'accepted' : [outcome.status, outcome.error];
}

async function fileAuthenticator(jwks: unknown): Promise<{ auth: ReturnType<typeof jwtAuthenticator>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-jwks-'));
  const path = join(dir, 'jwks.json');
  writeFileSync(path, JSON.stringify(jwks));
  const auth = jwtAuthenticator({ issuer: ISSUER, audience: AUDIENCE, jwks: parseJwksLocation(path) });
  await auth.keys.load();
  return { auth, dir };
}

test('a valid access token is the principal issuer+subject, with the scopes of its scope claim', async () => {
  const key = await signingKey('k1');
  const { auth, dir } = await fileAuthenticator(jwksOf(key));
  try {
    const outcome = await auth.authenticate(
      `Bearer ${await accessToken(key, { sub: 'alice', scope: 'rimthan:admin openid' })}`,
    );
    assert.ok(outcome.ok);
    assert.equal(outcome.principal.id, principalIdOf({ kind: 'oauth', issuer: ISSUER, subject: 'alice' }));
    assert.match(outcome.principal.id, /^oauth-[0-9a-f]{32}$/);
    assert.deepEqual(outcome.principal.scopes, ['rimthan:admin', 'openid']);
    assert.ok(!outcome.principal.id.includes('alice'));
    // A second token for the same subject is the same principal; another subject is another.
    const again = await auth.authenticate(`Bearer ${await accessToken(key, { sub: 'alice' })}`);
    const bob = await auth.authenticate(`Bearer ${await accessToken(key, { sub: 'bob' })}`);
    assert.ok(again.ok && bob.ok);
    assert.equal(again.principal.id, outcome.principal.id);
    assert.notEqual(bob.principal.id, outcome.principal.id);
    // The scope claim feeds requireScope (the Admin API's gate).
    const admin = requireScope(auth, 'rimthan:admin');
    assert.equal((await admin.authenticate(`Bearer ${await accessToken(key, { scope: 'rimthan:admin' })}`)).ok, true);
    assert.deepEqual(refusal(await admin.authenticate(`Bearer ${await accessToken(key)}`)), [
      403,
      'insufficient_scope',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('expired, not yet valid, wrong audience, wrong issuer, alg none, HS256 with the public key and garbage are 401 invalid_token', async () => {
  const key = await signingKey('k1', 'RS256');
  const { auth, dir } = await fileAuthenticator(jwksOf(key));
  try {
    const publicPem = await exportSPKI((await importJWK(key.publicJwk, 'RS256')) as CryptoKey);
    const now = Math.floor(Date.now() / 1000);
    const hs256 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('mallory')
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(publicPem));
    const hs256WithN = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('mallory')
      .setExpirationTime(now + 300)
      .sign(Buffer.from(key.publicJwk.n ?? '', 'base64url'));
    const cases: Record<string, string> = {
      expired: await accessToken(key, { expiresIn: -3600 }),
      'not yet valid': await accessToken(key, { notBefore: 3600 }),
      'wrong audience': await accessToken(key, { aud: 'https://other.example.test/mcp' }),
      'wrong issuer': await accessToken(key, { iss: 'https://evil.example.test/realm' }),
      'alg none': unsecuredToken(key.kid, { iss: ISSUER, aud: AUDIENCE, sub: 'mallory', exp: now + 300 }),
      'alg none, empty signature': unsecuredToken(key.kid, { iss: ISSUER, aud: AUDIENCE, sub: 'm', exp: now + 300 })
        .split('.')
        .slice(0, 2)
        .join('.')
        .concat('.'),
      'HS256 keyed with the public key PEM': hs256,
      'HS256 keyed with the modulus': hs256WithN,
      'no exp': await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('x')
        .sign(key.privateKey),
      'no sub': await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now + 300)
        .sign(key.privateKey),
      garbage: 'not-a-jwt',
      'three junk segments': 'aaaa.bbbb.cccc',
    };
    for (const [name, token] of Object.entries(cases)) {
      const outcome = await auth.authenticate(`Bearer ${token}`);
      assert.deepEqual(refusal(outcome), [401, 'invalid_token'], name);
      assert.ok(!outcome.ok);
      assert.match(bearerChallenge(outcome), /^Bearer realm="rimthan", error="invalid_token"$/, name);
    }
    // Within the clock tolerance a token just past exp or just before nbf is still accepted.
    assert.equal((await auth.authenticate(`Bearer ${await accessToken(key, { expiresIn: -5 })}`)).ok, true);
    assert.equal((await auth.authenticate(`Bearer ${await accessToken(key, { notBefore: 5 })}`)).ok, true);
    assert.deepEqual(refusal(await auth.authenticate(undefined)), [401, undefined]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unknown kid refetches the JWKS URL (a rotated-in key verifies), at most once per cooldown', async () => {
  const k1 = await signingKey('k1');
  const k2 = await signingKey('k2');
  const k3 = await signingKey('k3');
  const server = await serveJwks(jwksOf(k1));
  try {
    const keys = new JwksCache(parseJwksLocation(server.url), { refetchCooldownMs: 60_000 });
    const auth = jwtAuthenticator({ issuer: ISSUER, audience: AUDIENCE, jwks: keys });
    await keys.load();
    assert.equal(server.fetches(), 1);
    assert.equal((await auth.authenticate(`Bearer ${await accessToken(k1)}`)).ok, true);
    assert.equal(server.fetches(), 1, 'a known kid is served from the cache');

    // The provider rotates k2 in: the first token naming it refetches and verifies.
    server.set(jwksOf(k1, k2));
    // Attempted less than a cooldown after the last fetch: refused, without another fetch...
    assert.deepEqual(refusal(await auth.authenticate(`Bearer ${await accessToken(k2)}`)), [401, 'invalid_token']);
    assert.equal(server.fetches(), 1, 'within the cooldown an unknown kid does not fetch');

    const eager = new JwksCache(parseJwksLocation(server.url), { refetchCooldownMs: 0 });
    const rotating = jwtAuthenticator({ issuer: ISSUER, audience: AUDIENCE, jwks: eager });
    server.set(jwksOf(k1));
    await eager.load();
    const before = server.fetches();
    server.set(jwksOf(k1, k2));
    assert.equal((await rotating.authenticate(`Bearer ${await accessToken(k2)}`)).ok, true);
    assert.equal(server.fetches(), before + 1, 'the unknown kid caused exactly one refetch');
    // A kid the provider never published: refetched, still refused.
    assert.deepEqual(refusal(await rotating.authenticate(`Bearer ${await accessToken(k3)}`)), [401, 'invalid_token']);
    // A key the provider removed stops verifying once the set is refetched.
    server.set(jwksOf(k2));
    await eager.load();
    assert.deepEqual(refusal(await rotating.authenticate(`Bearer ${await accessToken(k1)}`)), [401, 'invalid_token']);
  } finally {
    await server.close();
  }
});

test('a JWKS that is not a public asymmetric key set is refused at load, naming the setting', async () => {
  const key = await signingKey('k1');
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-jwks-'));
  try {
    const cases: Record<string, [unknown, RegExp]> = {
      'not JSON': ['{nope', /--oauth-jwks is not a JSON key set/],
      'no keys': [{ keys: [] }, /--oauth-jwks holds no keys/],
      symmetric: [{ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 's' }] }, /symmetric keys are refused/],
      private: [{ keys: [{ ...key.publicJwk, d: 'AAAA' }] }, /is a private key/],
      hs: [{ keys: [{ ...key.publicJwk, alg: 'HS256' }] }, /only asymmetric algorithms/],
    };
    for (const [name, [content, message]] of Object.entries(cases)) {
      const path = join(dir, `${name}.json`);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      await assert.rejects(new JwksCache(parseJwksLocation(path)).load(), message, name);
    }
    await assert.rejects(
      new JwksCache(parseJwksLocation(join(dir, 'missing.json'))).load(),
      /cannot read --oauth-jwks/,
    );
    assert.throws(() => parseJwksLocation('http://idp.example.test/jwks'), /must be an https:\/\/ URL/);
    assert.throws(() => parseJwksLocation('https://u:p@idp.example.test/jwks'), /must not carry credentials/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('property: a changed token never verifies', async () => {
  const key = await signingKey('k1');
  const { auth, dir } = await fileAuthenticator(jwksOf(key));
  try {
    const token = await accessToken(key, { sub: 'alice', scope: 'a b' });
    assert.equal((await auth.authenticate(`Bearer ${token}`)).ok, true);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    // The signature's last character carries unused bits: another spelling decodes to the same bytes.
    const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = token.at(-1) ?? 'A';
    const sameBytes = token.slice(0, -1) + (b64[b64.indexOf(last) ^ 1] ?? 'A');
    assert.equal(
      Buffer.from(sameBytes.split('.')[2] ?? '', 'base64url').equals(
        Buffer.from(token.split('.')[2] ?? '', 'base64url'),
      ),
      true,
    );
    assert.equal((await auth.authenticate(`Bearer ${sameBytes}`)).ok, false, 'a non-canonical spelling is refused');
    const mutation = fc.oneof(
      // replace one character
      fc.record({
        kind: fc.constant('replace' as const),
        at: fc.nat(),
        char: fc.constantFrom(...alphabet),
      }),
      // delete one character
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), char: fc.constant('') }),
      // insert one character
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: fc.constantFrom(...alphabet) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        let mutated = token;
        for (const m of mutations) {
          const at = m.at % (mutated.length + (m.kind === 'insert' ? 1 : 0));
          if (m.kind === 'replace') mutated = mutated.slice(0, at) + m.char + mutated.slice(at + 1);
          else if (m.kind === 'delete') mutated = mutated.slice(0, at) + mutated.slice(at + 1);
          else mutated = mutated.slice(0, at) + m.char + mutated.slice(at);
        }
        fc.pre(mutated !== token);
        const outcome = await (auth as Authenticator).authenticate(`Bearer ${mutated}`);
        assert.equal(outcome.ok, false);
      }),
      { numRuns: 300 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
