/** src/http's route table: matching, params, the 404 and 405 answers (405 naming the methods allowed). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchRoute, pathPattern, sendMiss } from '../../src/http/index.js';
import { fakeRequest, fakeResponse } from './fakes.js';

const routes = [
  { method: 'GET', pattern: pathPattern('/api/runs'), name: 'list' },
  { method: 'POST', pattern: pathPattern('/api/runs'), name: 'start' },
  { method: 'GET', pattern: pathPattern('/api/runs/:run_id'), name: 'one' },
  { method: 'POST', pattern: pathPattern('/api/runs/:run_id/cancel'), name: 'cancel' },
  { method: 'GET', pattern: pathPattern('/api/releases/:release/workflows/:id/:version'), name: 'workflow' },
];
const wording = { notFound: 'no such endpoint', methodNotAllowed: (allow: string) => `allowed: ${allow}` };

describe('route table', () => {
  test('the route of the path and method wins, its pattern groups are the params', () => {
    const found = matchRoute(routes, 'GET', '/api/releases/r-2026.1.1/workflows/research/1.0.0');
    assert.equal(found.kind, 'found');
    if (found.kind !== 'found') return;
    assert.equal(found.route.name, 'workflow');
    assert.deepEqual(found.params, ['r-2026.1.1', 'research', '1.0.0']);
    const start = matchRoute(routes, 'POST', '/api/runs');
    assert.equal(start.kind === 'found' ? start.route.name : undefined, 'start');
    const cancel = matchRoute(routes, 'POST', '/api/runs/3f1c/cancel');
    assert.deepEqual(cancel.kind === 'found' ? cancel.params : undefined, ['3f1c']);
  });

  test('a path no route matches is not_found, whatever the method', () => {
    for (const path of ['/api/nothing', '/api/runs/', '/api/runs/a/b', '/api/runs/../etc', '/api/runs/.hidden', '/']) {
      assert.equal(matchRoute(routes, 'GET', path).kind, 'not_found', path);
    }
    assert.equal(matchRoute(routes, 'GET', `/api/runs/${'a'.repeat(129)}`).kind, 'not_found', 'over-long segment');
  });

  test('a path matched under another method is 405 with every method allowed there', () => {
    assert.deepEqual(matchRoute(routes, 'DELETE', '/api/runs'), { kind: 'method_not_allowed', allow: 'GET, POST' });
    assert.deepEqual(matchRoute(routes, 'POST', '/api/runs/abc'), { kind: 'method_not_allowed', allow: 'GET' });
    assert.deepEqual(matchRoute(routes, 'GET', '/api/runs/abc/cancel'), { kind: 'method_not_allowed', allow: 'POST' });
  });

  test('misses are answered as 404 not_found and 405 method_not_allowed with Allow', async () => {
    const missing = fakeResponse();
    sendMiss(fakeRequest({}), missing.res, { kind: 'not_found' }, wording);
    assert.equal(missing.sent.status, 404);
    assert.deepEqual(JSON.parse(missing.sent.body), { error: { code: 'not_found', message: 'no such endpoint' } });

    const wrong = fakeResponse();
    const miss = matchRoute(routes, 'PUT', '/api/runs');
    assert.equal(miss.kind, 'method_not_allowed');
    if (miss.kind !== 'method_not_allowed') return;
    sendMiss(fakeRequest({}), wrong.res, miss, wording);
    assert.equal(wrong.sent.status, 405);
    assert.equal(wrong.sent.headers['Allow'], 'GET, POST');
    assert.deepEqual(JSON.parse(wrong.sent.body), {
      error: { code: 'method_not_allowed', message: 'allowed: GET, POST' },
    });
    await new Promise((resolve) => setImmediate(resolve));
  });
});
