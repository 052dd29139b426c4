import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  anyOf,
  bearerChallenge,
  bearerTokenOf,
  principalIdOf,
  requireScope,
  staticTokenAuthenticator,
} from '../../src/identity/index.js';

const TOKEN_A = 'token-a-0123456789abcdef';
const TOKEN_B = 'token-b-0123456789abcdef';

test('a static token is its own principal, named by the pseudonym and never by the token', async () => {
  const auth = staticTokenAuthenticator([TOKEN_A, TOKEN_B]);
  const a = await auth.authenticate(`Bearer ${TOKEN_A}`);
  const b = await auth.authenticate(`bearer ${TOKEN_B}`);
  assert.ok(a.ok && b.ok);
  assert.equal(a.principal.id, principalIdOf({ kind: 'bearer', token: TOKEN_A }));
  assert.notEqual(a.principal.id, b.principal.id);
  assert.ok(!a.principal.id.includes(TOKEN_A));
});

test('no credential is a bare 401; a wrong or malformed one is invalid_token', async () => {
  const auth = staticTokenAuthenticator([TOKEN_A]);
  const none = await auth.authenticate(undefined);
  assert.deepEqual(none.ok ? undefined : [none.status, none.error], [401, undefined]);
  for (const header of [`Bearer ${TOKEN_B}`, `Basic ${TOKEN_A}`, `Bearer ${TOKEN_A} extra`, 'Bearer ', '']) {
    const outcome = await auth.authenticate(header);
    assert.deepEqual(outcome.ok ? undefined : [outcome.status, outcome.error], [401, 'invalid_token'], header);
  }
});

test('an empty token list refuses everyone (fail closed)', async () => {
  const outcome = await staticTokenAuthenticator([]).authenticate(`Bearer ${TOKEN_A}`);
  assert.equal(outcome.ok, false);
});

test('requireScope: a valid token without the scope is 403 insufficient_scope; anyOf keeps the most specific refusal', async () => {
  const participant = staticTokenAuthenticator([TOKEN_A]);
  const admin = staticTokenAuthenticator([TOKEN_B], { scopes: ['rimthan:admin'] });
  const gate = anyOf(requireScope(admin, 'rimthan:admin'), requireScope(participant, 'rimthan:admin'));
  assert.equal((await gate.authenticate(`Bearer ${TOKEN_B}`)).ok, true);
  const refused = await gate.authenticate(`Bearer ${TOKEN_A}`);
  assert.ok(!refused.ok);
  assert.equal(refused.status, 403);
  assert.equal(
    bearerChallenge(refused, { resourceMetadata: 'https://x/.well-known/oauth-protected-resource' }),
    'Bearer realm="rimthan", resource_metadata="https://x/.well-known/oauth-protected-resource", error="insufficient_scope", scope="rimthan:admin"',
  );
  const unknown = await gate.authenticate('Bearer nope-nope-nope-nope');
  assert.deepEqual(unknown.ok ? undefined : [unknown.status, unknown.error], [401, 'invalid_token']);
});

test('property: only a configured token authenticates, whatever header is presented', async () => {
  const printable = fc.string({ minLength: 1, maxLength: 64, unit: fc.constantFrom(...'abcXYZ019-_.~!') });
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(printable, { minLength: 1, maxLength: 4 }), fc.string(), async (tokens, junk) => {
      const auth = staticTokenAuthenticator(tokens);
      for (const token of tokens) assert.equal((await auth.authenticate(`Bearer ${token}`)).ok, true);
      const presented = bearerTokenOf(junk);
      const outcome = await auth.authenticate(junk);
      assert.equal(outcome.ok, presented !== undefined && tokens.includes(presented));
    }),
  );
});
