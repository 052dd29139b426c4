/** src/http's body reader: the byte cap (declared and streamed), the media type, strict JSON refusals. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { announcesBody, declaredTooLarge, readBody, readJsonObject } from '../../src/http/index.js';
import { fakeRequest } from './fakes.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

describe('body limit', () => {
  test('a body within the cap is read whole', async () => {
    const body = await readBody(fakeRequest({}, ['ab', 'cd']), 4);
    assert.equal(body.kind, 'complete');
    assert.equal(body.kind === 'complete' ? body.bytes.toString() : '', 'abcd');
  });

  test('a declared length over the cap is refused before a byte is read', async () => {
    const req = fakeRequest({ 'content-length': '5' }, ['abcde']);
    assert.equal(declaredTooLarge(req, 4), true);
    assert.deepEqual(await readBody(req, 4), { kind: 'too_large' });
    assert.equal(declaredTooLarge(fakeRequest({ 'content-length': 'junk' }), 4), true, 'not a number');
    assert.equal(declaredTooLarge(fakeRequest({ 'content-length': '4' }), 4), false);
  });

  test('a streamed body that outgrows the cap is refused at the first byte over it', async () => {
    assert.deepEqual(await readBody(fakeRequest({}, ['abc', 'de']), 4), { kind: 'too_large' });
  });

  test('a body is announced by a non-zero length or chunked transfer', () => {
    assert.equal(announcesBody(fakeRequest({})), false);
    assert.equal(announcesBody(fakeRequest({ 'content-length': '0' })), false);
    assert.equal(announcesBody(fakeRequest({ 'content-length': '2' })), true);
    assert.equal(announcesBody(fakeRequest({ 'transfer-encoding': 'chunked' })), true);
  });
});

describe('strict JSON bodies', () => {
  const read = (headers: Record<string, string>, text: string, max = 1024) =>
    readJsonObject(fakeRequest(headers, [text]), max);

  test('one JSON object is accepted', async () => {
    assert.deepEqual(await read(JSON_TYPE, '{"release":"r-1","n":[1,2]}'), {
      ok: true,
      value: { release: 'r-1', n: [1, 2] },
    });
  });

  test('a body that is not application/json is unsupported_media_type, unread', async () => {
    for (const type of [
      {},
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      assert.deepEqual(await read(type, '{}'), {
        ok: false,
        code: 'unsupported_media_type',
        message: 'the body must be application/json',
      });
    }
  });

  test('over the cap is too_large, naming the cap', async () => {
    assert.deepEqual(await read(JSON_TYPE, `{"a":"${'x'.repeat(40)}"}`, 16), {
      ok: false,
      code: 'too_large',
      message: 'the body exceeds 16 bytes',
    });
  });

  test('duplicate keys, trailing data, lone surrogates and junk are parse_error', async () => {
    for (const text of ['{"a":1,"a":2}', '{"a":1} {}', '{"a":"\\ud800"}', '{a:1}', '', '{"a":1,}']) {
      assert.deepEqual(
        await read(JSON_TYPE, text),
        { ok: false, code: 'parse_error', message: 'the body is not one strict JSON document' },
        text,
      );
    }
  });

  test('a JSON value that is not an object is invalid_arguments', async () => {
    for (const text of ['[]', '1', '"s"', 'null', 'true']) {
      assert.deepEqual(
        await read(JSON_TYPE, text),
        { ok: false, code: 'invalid_arguments', message: 'the body must be a JSON object' },
        text,
      );
    }
  });
});
