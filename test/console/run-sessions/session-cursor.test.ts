/**
 * The session list's cursor: every session id the store can hold round-trips, and a cursor has one spelling (any
 * string the decoder accepts is exactly the encoding of what it decodes to), so a forged or altered cursor is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeSessionCursor, encodeSessionCursor } from '../../../src/console/run-sessions/session-cursor.js';

const sessionId = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 80 })
  .filter((s) => Buffer.byteLength(s, 'utf8') <= 256);

test('a session id round-trips through its cursor, which fits a query parameter', () => {
  fc.assert(
    fc.property(sessionId, (session) => {
      const cursor = encodeSessionCursor(session);
      assert.ok(cursor.length <= 348);
      assert.equal(decodeSessionCursor(cursor), session);
    }),
  );
  const longest = 'x'.repeat(256);
  assert.equal(decodeSessionCursor(encodeSessionCursor(longest)), longest);
  assert.equal(encodeSessionCursor(longest).length <= 348, true);
});

test('a cursor has one spelling: whatever decodes is the encoding of what it decodes to', () => {
  const near = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.base64String({ maxLength: 80 }).map((b) => b.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '')),
    sessionId.map((s) => encodeSessionCursor(s).slice(0, -1)),
    sessionId.map((s) => `${encodeSessionCursor(s)}A`),
  );
  fc.assert(
    fc.property(near, (cursor) => {
      const session = decodeSessionCursor(cursor);
      if (session !== undefined) assert.equal(encodeSessionCursor(session), cursor);
    }),
  );
});

test('other versions, empty and oversized session ids, invalid UTF-8 and padding are refused', () => {
  for (const cursor of [
    '',
    Buffer.from('s2:abc').toString('base64url'),
    Buffer.from('s1:').toString('base64url'),
    Buffer.from(`s1:${'x'.repeat(257)}`).toString('base64url'),
    Buffer.concat([Buffer.from('s1:'), Buffer.from([0xff, 0xfe])]).toString('base64url'),
    `${encodeSessionCursor('abc')}=`,
    Buffer.from('s1:ab').toString('base64'),
    '{"seq":1,"v":1}',
  ]) {
    assert.equal(decodeSessionCursor(cursor), undefined, cursor);
  }
});
