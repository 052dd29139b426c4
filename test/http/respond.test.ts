/** src/http's answers: one status per error code (the one table), error bodies, JSON-RPC errors, cut responses. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_STATUS, jsonRpcErrorBody, sendError, sendJson, statusFor } from '../../src/http/index.js';
import { fakeResponse } from './fakes.js';

describe('status table', () => {
  test('each code has exactly one status, the one the table names', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      assert.equal(statusFor(code), status, code);
      assert.ok(status >= 400 && status <= 599, code);
    }
  });

  test('codes the Admin API and the console both answer keep one answer', () => {
    // The two tables this one replaced disagreed on release_unavailable (422 vs 404): the request is understood and
    // refused, the release exists but cannot be used, so 422 (the Admin API's answer, which the CLI messages name).
    assert.equal(statusFor('release_unavailable'), 422);
    assert.equal(statusFor('invalid_arguments'), 400);
    assert.equal(statusFor('parse_error'), 400);
    assert.equal(statusFor('unauthorized'), 401);
    assert.equal(statusFor('forbidden'), 403);
    assert.equal(statusFor('not_found'), 404);
    assert.equal(statusFor('method_not_allowed'), 405);
    assert.equal(statusFor('too_large'), 413);
    assert.equal(statusFor('unsupported_media_type'), 415);
    assert.equal(statusFor('unavailable'), 503);
    assert.equal(statusFor('internal'), 500);
  });

  test('a code outside the table, or an inherited property name, is 500', () => {
    for (const code of ['no_such_code', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '']) {
      assert.equal(statusFor(code), 500, code);
    }
  });
});

describe('answers', () => {
  test('an error is {error: {code, message}} with its status; details only when given, in their order', () => {
    const plain = fakeResponse();
    sendError(plain.res, { code: 'release_unavailable', message: 'cannot be used' });
    assert.equal(plain.sent.status, 422);
    assert.equal(plain.sent.body, '{"error":{"code":"release_unavailable","message":"cannot be used"}}');
    assert.equal(plain.sent.headers['Content-Type'], 'application/json; charset=utf-8');
    assert.equal(plain.sent.headers['Content-Length'], String(Buffer.byteLength(plain.sent.body)));

    const detailed = fakeResponse();
    sendError(detailed.res, { code: 'release_invalid', message: 'bad', reason: 'digest', entry: 'a.json' });
    assert.equal(detailed.sent.status, 400);
    assert.equal(
      detailed.sent.body,
      '{"error":{"code":"release_invalid","message":"bad","reason":"digest","entry":"a.json"}}',
    );
  });

  test('a response whose headers already went out is cut, never given a second body', () => {
    const { res, sent } = fakeResponse();
    sendJson(res, 200, { a: 1 });
    let destroyed = false;
    res.destroy = () => {
      destroyed = true;
      return res;
    };
    sendError(res, { code: 'internal', message: 'internal error' });
    assert.equal(destroyed, true);
    assert.equal(sent.body, '{"a":1}');
  });

  test('the JSON-RPC error body carries the request id when known, else null', () => {
    assert.equal(
      jsonRpcErrorBody(-32600, 'bad request'),
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad request"}}',
    );
    assert.equal(JSON.parse(jsonRpcErrorBody(-32700, 'parse error', 7)).id, 7);
  });
});
