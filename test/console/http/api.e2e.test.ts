/**
 * The console's JSON endpoints as a client meets them, over real HTTP: sign-in (one-time link, token form, bearer),
 * session isolation (another caller's run is `not_found`, exactly like a missing one), the same malformed-input
 * refusals as the tools (unknown fields, duplicate keys, oversized bodies, wrong media type, unknown query
 * parameters), Host/Origin checks, the security headers, and the guided inspection's refusals.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { CONTENT_SECURITY_POLICY } from '../../../src/console/http/security-headers.js';
import { APPROVAL_FLOW, MARKER } from '../fixtures.js';
import { sessionAtDecisionRecord } from '../guided-session.js';
import { startConsoleCli } from '../support.js';
import type { RunningConsole } from '../support.js';
import { captureIo } from '../../cli/support.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: { error?: { code: string; message: string } } & Record<string, unknown>;
}

/** One HTTP exchange with full control of the headers (Host and Origin included). */
function call(
  origin: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    // A fresh connection per request: a pooled keep-alive socket that the server closed while this process was busy
    // (the session fixture drives a whole workflow in-process) would be reused and reset.
    const req = request(url, { method, headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Answer['json'] = {};
        try {
          json = JSON.parse(text) as Answer['json'];
        } catch {
          // not JSON (an asset, a redirect)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** The CSRF token the answer to a sign-in hands the page (in a `<meta>` element). */
function csrfIn(page: string): string {
  const token = /<meta name="rimthan-csrf" content="([A-Za-z0-9_-]{43})" \/>/.exec(page)?.[1];
  assert.ok(token !== undefined, 'the sign-in answer carries the CSRF token');
  return token;
}

const TOKEN_A = 'console-test-token-aaaaaaaaaaaaaaaa';
const TOKEN_B = 'console-test-token-bbbbbbbbbbbbbbbb';

describe('console API with admin tokens', () => {
  let dir: string;
  let running: RunningConsole;
  const all: string[] = [];
  const as = (token: string, extra: Record<string, string> = {}): Record<string, string> => ({
    Authorization: `Bearer ${token}`,
    ...extra,
  });
  const json = { 'Content-Type': 'application/json' };
  const send = async (
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const answer = await call(running.origin, method, path, {
      headers: as(token, body === undefined ? headers : { ...json, ...headers }),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    all.push(answer.text);
    return answer;
  };
  let runA = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rimthan-console-api-'));
    writeFileSync(join(dir, 'tokens'), `${TOKEN_A}\n${TOKEN_B}\n`);
    running = await startConsoleCli(['--admin-token-file', join(dir, 'tokens')]);
    const started = await send(TOKEN_A, 'POST', '/api/runs', {
      definition_name: APPROVAL_FLOW.name,
      definition_version: APPROVAL_FLOW.version,
      input: APPROVAL_FLOW.input,
    });
    assert.equal(started.status, 200, started.text);
    runA = started.json['run_id'] as string;
  });
  after(async () => {
    assert.equal(await running.stop(), 0);
    rmSync(dir, { recursive: true, force: true });
    for (const text of [...all, running.stderr.join('\n')]) {
      assert.ok(!text.includes(MARKER), 'the marker leaked');
      assert.ok(!text.includes(TOKEN_A) && !text.includes(TOKEN_B), 'a token was shown');
    }
  });

  test('every answer carries the strict CSP, no-store and no-sniff; without a token the API is 401', async () => {
    const answer = await call(running.origin, 'GET', '/api/releases');
    assert.equal(answer.status, 401);
    assert.equal(answer.json.error?.code, 'unauthorized');
    assert.equal(answer.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.match(CONTENT_SECURITY_POLICY, /script-src 'self';/);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval/);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    const page = await call(running.origin, 'GET', '/');
    assert.equal(page.status, 200);
    assert.match(page.text, /<script type="module" src="\/assets\/app.js"><\/script>/);
    assert.doesNotMatch(page.text, /<script>|<style|style=/, 'no inline script or style');
    const wrong = await call(running.origin, 'GET', '/api/me', { headers: as('not-a-token-but-long-enough') });
    assert.equal(wrong.status, 401);
  });

  test("another caller's run is not_found, exactly like a run that does not exist", async () => {
    const missing = await send(TOKEN_B, 'GET', `/api/runs/${randomUUID()}`);
    assert.equal(missing.status, 404);
    for (const [method, path, body] of [
      ['GET', `/api/runs/${runA}`, undefined],
      ['GET', `/api/runs/${runA}/history`, undefined],
      ['GET', `/api/runs/${runA}/events`, undefined],
      ['POST', `/api/runs/${runA}/cancel`, { reason: 'not mine' }],
      ['POST', `/api/runs/${runA}/resume`, { resume: APPROVAL_FLOW.resume }],
    ] as const) {
      const answer = await send(TOKEN_B, method, path, body);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.deepEqual(answer.json.error, missing.json.error);
    }
    const mine = await send(TOKEN_A, 'GET', `/api/runs/${runA}`);
    assert.equal(mine.status, 200);
    assert.equal(mine.json['run_id'], runA);
    const listed = await send(TOKEN_B, 'GET', '/api/runs');
    assert.deepEqual(listed.json['runs'], []);
  });

  test("another session's runs are not_found for a caller, whether that session exists or not", async () => {
    const me = await send(TOKEN_A, 'GET', '/api/me');
    assert.equal(me.json['mode'], 'caller');
    const session = me.json['session'] as string;
    assert.match(session, /^bearer-[0-9a-f]{32}$/);
    for (const path of [
      `/api/runs?session=${session}`,
      `/api/definitions?session=${session}`,
      `/api/runs/${runA}?session=${session}`,
      '/api/runs?session=nobody-has-this-session',
    ]) {
      const other = await send(TOKEN_B, 'GET', path);
      assert.equal(other.status, 404, path);
      assert.deepEqual(other.json.error, { code: 'not_found', message: 'session not found' });
    }
    const own = await send(TOKEN_A, 'GET', `/api/runs?session=${session}`);
    assert.equal(own.status, 200);
  });

  test('a caller’s session list holds its own session only: its pseudonym and run counts, never a token', async () => {
    const mine = await send(TOKEN_A, 'GET', '/api/sessions');
    assert.equal(mine.status, 200, mine.text);
    const sessions = mine.json['sessions'] as { session: string; runs: number; by_status: Record<string, number> }[];
    const own = (await send(TOKEN_A, 'GET', '/api/me')).json['session'] as string;
    assert.deepEqual(
      sessions.map((x) => x.session),
      [own],
    );
    assert.ok((sessions[0]?.runs ?? 0) >= 1);
    assert.equal(
      Object.values(sessions[0]?.by_status ?? {}).reduce((a, b) => a + b, 0),
      sessions[0]?.runs,
    );
    assert.equal(mine.json['next'], undefined);
    const theirs = await send(TOKEN_B, 'GET', '/api/sessions');
    assert.deepEqual(theirs.json, { sessions: [] }, 'no runs yet, and nobody else’s session');
  });

  test('the session list refuses unknown or repeated parameters, a bad cursor or limit, and any body', async () => {
    for (const query of [
      'session=anyone',
      'colour=blue',
      'after=nonsense!',
      `after=${Buffer.from('s2:x').toString('base64url')}`,
      `after=${'A'.repeat(600)}`,
      'limit=0',
      'limit=51',
      'limit=ten',
      'limit=1&limit=2',
    ]) {
      const refused = await send(TOKEN_A, 'GET', `/api/sessions?${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.json.error?.code, 'invalid_arguments', query);
      assert.equal(typeof refused.json.error?.message, 'string');
    }
    const body = JSON.stringify({ limit: 5 });
    const withBody = await send(TOKEN_A, 'GET', '/api/sessions', body, { 'Content-Length': String(body.length) });
    assert.equal(withBody.status, 413, withBody.text);
    assert.equal(withBody.json.error?.code, 'too_large');
    const big = await call(running.origin, 'GET', '/api/sessions', {
      headers: as(TOKEN_A, { ...json, 'Content-Length': String(2 * 1024 * 1024) }),
    }).catch((e: unknown) => e as Error);
    assert.ok(big instanceof Error || big.status === 413, 'an oversized body is refused unread');
    assert.equal((await send(TOKEN_A, 'POST', '/api/sessions', {})).status, 405);
    assert.equal((await call(running.origin, 'GET', '/api/sessions')).status, 401);
  });

  test('malformed bodies get the tools\u2019 refusals: unknown fields, duplicate keys, wrong types, size, media type', async () => {
    const start = {
      definition_name: APPROVAL_FLOW.name,
      definition_version: APPROVAL_FLOW.version,
      input: APPROVAL_FLOW.input,
    };
    const unknown = await send(TOKEN_A, 'POST', '/api/runs', { ...start, colour: 'blue' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error?.code, 'invalid_arguments');
    const badInput = await send(TOKEN_A, 'POST', '/api/runs', {
      ...start,
      input: { ...APPROVAL_FLOW.input, extra: MARKER },
    });
    assert.equal(badInput.status, 400);
    assert.equal(badInput.json.error?.code, 'invalid_input');
    const duplicate = await send(TOKEN_A, 'POST', `/api/runs/${runA}/cancel`, '{"reason":"a","reason":"b"}');
    assert.equal(duplicate.status, 400);
    assert.equal(duplicate.json.error?.code, 'parse_error');
    const extra = await send(TOKEN_A, 'POST', `/api/runs/${runA}/cancel`, { reason: 'x', force: true });
    assert.equal(extra.json.error?.code, 'invalid_arguments');
    const runId = await send(TOKEN_A, 'POST', `/api/runs/${runA}/cancel`, { run_id: runA });
    assert.equal(runId.json.error?.code, 'invalid_arguments');
    const array = await send(TOKEN_A, 'POST', '/api/runs', '[1,2]');
    assert.equal(array.json.error?.code, 'invalid_arguments');
    const session = await send(TOKEN_A, 'POST', '/api/runs', { ...start, session: 7 });
    assert.equal(session.json.error?.code, 'invalid_arguments');
    const big = await send(
      TOKEN_A,
      'POST',
      '/api/runs',
      JSON.stringify({ ...start, input: { ...APPROVAL_FLOW.input, padding: 'x'.repeat(1100 * 1024) } }),
    );
    assert.equal(big.status, 413);
    assert.equal(big.json.error?.code, 'too_large');
    const declared = await call(running.origin, 'POST', '/api/runs', {
      headers: as(TOKEN_A, { ...json, 'Content-Length': String(64 * 1024 * 1024) }),
    }).catch((e: unknown) => e as Error);
    assert.ok(
      declared instanceof Error || declared.status === 413,
      'a declared over-cap length is refused before the body',
    );
    const form = await send(TOKEN_A, 'POST', '/api/runs', 'a=b', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 415);
    const resumed = await send(TOKEN_A, 'POST', `/api/runs/${runA}/resume`, { resume: APPROVAL_FLOW.badResume });
    assert.equal(resumed.status, 400, resumed.text);
  });

  test('query parameters are closed, checked and never repeated; unknown paths and methods are refused', async () => {
    assert.equal((await send(TOKEN_A, 'GET', '/api/runs?colour=blue')).json.error?.code, 'invalid_arguments');
    assert.equal((await send(TOKEN_A, 'GET', '/api/runs?status=done')).json.error?.code, 'invalid_arguments');
    assert.equal(
      (await send(TOKEN_A, 'GET', '/api/runs?status=running&status=failed')).json.error?.code,
      'invalid_arguments',
    );
    assert.equal((await send(TOKEN_A, 'GET', `/api/runs/${runA}/history?after_revision=-1`)).status, 400);
    assert.equal((await send(TOKEN_A, 'GET', `/api/runs/${runA}/history?after_event_id=${randomUUID()}`)).status, 400);
    assert.equal((await send(TOKEN_A, 'GET', `/api/runs/${runA}/events?after=nonsense`)).status, 400);
    assert.equal((await send(TOKEN_A, 'GET', '/api/runs/not-a-uuid')).json.error?.code, 'invalid_arguments');
    assert.equal((await send(TOKEN_A, 'GET', '/api/releases/no-such-release-2020.1.1')).status, 404);
    assert.equal((await send(TOKEN_A, 'GET', '/api/diff?from=research-2026.10.1')).status, 400);
    assert.equal((await send(TOKEN_A, 'GET', '/api/nothing')).status, 404);
    assert.equal((await send(TOKEN_A, 'POST', '/api/releases', {})).status, 405);
    assert.equal((await call(running.origin, 'GET', '/../../etc/passwd')).status, 404);
  });

  test('the Host and Origin of every request are checked', async () => {
    const host = await call(running.origin, 'GET', '/api/me', { headers: as(TOKEN_A, { Host: 'rebind.example' }) });
    assert.equal(host.status, 403);
    const origin = await send(TOKEN_A, 'POST', `/api/runs/${runA}/cancel`, {}, { Origin: 'https://evil.example' });
    assert.equal(origin.status, 403);
  });

  test('the sign-in form exchanges a token for an HttpOnly SameSite=Strict cookie; a cookie alone cannot change anything', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' };
    const failed = await call(running.origin, 'POST', '/auth', {
      headers: form,
      body: 'token=wrong-token-wrong-token',
    });
    assert.equal(failed.status, 303);
    assert.equal(failed.headers['set-cookie'], undefined);
    assert.equal(failed.headers['location'], '/login?failed=1');
    assert.match((await call(running.origin, 'GET', '/login?failed=1')).text, /That token was not accepted/);
    assert.doesNotMatch((await call(running.origin, 'GET', '/login')).text, /not accepted/);
    const signed = await call(running.origin, 'POST', '/auth', { headers: form, body: `token=${TOKEN_A}` });
    assert.equal(signed.status, 200, 'the page itself, with the sign-in’s CSRF token');
    const csrf = csrfIn(signed.text);
    const cookie = String(signed.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    const pair = cookie.split(';')[0] ?? '';
    const me = await call(running.origin, 'GET', '/api/me', { headers: { Cookie: pair } });
    assert.equal(me.json['mode'], 'caller');
    assert.equal(me.headers['x-rimthan-csrf'], undefined, 'only the answer to the sign-in carries the token');
    assert.doesNotMatch(me.text, new RegExp(csrf));
    const cancel = (headers: Record<string, string>): Promise<Answer> =>
      call(running.origin, 'POST', `/api/runs/${runA}/cancel`, {
        headers: { Cookie: pair, ...json, ...headers },
        body: '{"reason":"done"}',
      });
    // Neither the cookie alone, nor the right Origin or fetch metadata without the token (a cookie planted by another
    // port of the host arrives just like that), nor a token from a page of the same site will do.
    for (const headers of [
      {},
      { Origin: running.origin },
      { Origin: running.origin, 'Sec-Fetch-Site': 'same-origin' },
      { 'X-Rimthan-Csrf': 'A'.repeat(43) },
      { 'X-Rimthan-Csrf': csrf, 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ]) {
      const refused = await cancel(headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.match(refused.text, /must come from the console's own page/);
    }
    const withToken = await cancel({ 'X-Rimthan-Csrf': csrf });
    assert.equal(withToken.status, 200, withToken.text);
    assert.equal(withToken.json['run_status'], 'cancelled');
    const fromPage = await cancel({ Origin: running.origin, 'Sec-Fetch-Site': 'same-origin', 'X-Rimthan-Csrf': csrf });
    assert.equal(fromPage.status, 200, fromPage.text);
  });

  test('a sign-in without same-origin proof is refused: no cookie, whatever the token', async () => {
    for (const headers of [
      {},
      { Origin: running.origin },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'none' },
    ]) {
      const forged = await call(running.origin, 'POST', '/auth', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: `token=${TOKEN_B}`,
      });
      assert.equal(forged.status, 403, JSON.stringify(headers));
      assert.equal(forged.headers['set-cookie'], undefined);
    }
  });

  test('a session file is checked by the guided tools; a malformed request is refused', async () => {
    const session = await sessionAtDecisionRecord();
    const ok = await send(TOKEN_A, 'POST', '/api/guided/inspect', { file: session });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json['verified'], true);
    assert.equal(ok.json['current_step'], 'decision-record');
    assert.doesNotMatch(ok.text, /"token"/, 'no checkpoint token in the answer');
    const tampered = await send(TOKEN_A, 'POST', '/api/guided/inspect', {
      file: { ...session, checkpoint: { ...session.checkpoint, sequence: 1 } },
    });
    assert.equal(tampered.json['verified'], false);
    assert.equal((tampered.json['problem'] as { code: string }).code, 'workflow_checkpoint_error');
    const otherState = await send(TOKEN_A, 'POST', '/api/guided/inspect', {
      file: { ...session, confirmed_state: { state: {}, confirmations: {} } },
    });
    assert.equal((otherState.json['problem'] as { code: string }).code, 'workflow_protocol_error');
    for (const body of [
      { file: { ...session, notes: 'x' } },
      { file: session, workspace: 0 },
      { path: '/etc/passwd' },
      {},
    ]) {
      const refused = await send(TOKEN_A, 'POST', '/api/guided/inspect', body);
      assert.equal(refused.status, 400, JSON.stringify(body).slice(0, 80));
    }
    assert.equal((await send(TOKEN_A, 'POST', '/api/guided/inspect', { workspace: 3 })).status, 404);
  });

  test('the live stream of a finished run delivers its whole history, then ends', async () => {
    const started = await send(TOKEN_A, 'POST', '/api/runs', {
      definition_name: APPROVAL_FLOW.name,
      definition_version: APPROVAL_FLOW.version,
      input: APPROVAL_FLOW.input,
    });
    const id = started.json['run_id'] as string;
    const statusIs = async (status: string): Promise<void> => {
      for (let i = 0; i < 600; i++) {
        if ((await send(TOKEN_A, 'GET', `/api/runs/${id}`)).json['run_status'] === status) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`the run never became ${status}`);
    };
    await statusIs('interrupted');
    assert.equal((await send(TOKEN_A, 'POST', `/api/runs/${id}/resume`, { resume: APPROVAL_FLOW.resume })).status, 200);
    await statusIs('completed');
    const history = await send(TOKEN_A, 'GET', `/api/runs/${id}/history?limit=100`);
    const written = (history.json['entries'] as { kind: string }[]).map((e) => e.kind);
    assert.equal(written.at(-1), 'run_completed');
    const stream = await send(TOKEN_A, 'GET', `/api/runs/${id}/events`);
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    const kinds = [...stream.text.matchAll(/"kind":"([a-z_]+)"/g)].map((m) => m[1]);
    assert.deepEqual(kinds, written);
    assert.match(stream.text, /event: end\n/);
    const resumed = await send(
      TOKEN_A,
      'GET',
      `/api/runs/${id}/events?after=${/id: (\S+)\n/.exec(stream.text)?.[1] ?? ''}`,
    );
    assert.equal([...resumed.text.matchAll(/"kind":"run_started"/g)].length, 0, 'a cursor continues after its event');
  });
});

describe('console API on loopback with the one-time link', () => {
  let running: RunningConsole;
  before(async () => {
    running = await startConsoleCli([]);
  });
  after(async () => {
    assert.equal(await running.stop(), 0);
  });

  test('the link signs in once; then it is invalid', async () => {
    const link = new URL(running.url);
    assert.equal(link.pathname, '/auth');
    const bad = await call(running.origin, 'GET', '/auth?token=guess');
    assert.equal(bad.headers['set-cookie'], undefined);
    const first = await call(running.origin, 'GET', `${link.pathname}${link.search}`);
    assert.equal(first.status, 200);
    csrfIn(first.text);
    const cookie = String(first.headers['set-cookie']);
    assert.match(cookie, /^rimthan_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const again = await call(running.origin, 'GET', `${link.pathname}${link.search}`);
    assert.equal(again.headers['set-cookie'], undefined);
    assert.equal(again.headers['location'], '/?link=used');
    const pair = cookie.split(';')[0] ?? '';
    const me = await call(running.origin, 'GET', '/api/me', { headers: { Cookie: pair } });
    assert.equal(me.json['mode'], 'operator');
    const noSession = await call(running.origin, 'GET', '/api/runs', { headers: { Cookie: pair } });
    assert.equal(noSession.json.error?.code, 'invalid_arguments');
    const chosen = await call(running.origin, 'GET', '/api/runs?session=someone', { headers: { Cookie: pair } });
    assert.equal(chosen.status, 200);
    assert.equal((await call(running.origin, 'GET', '/login')).status, 404, 'no token form without tokens');
    for (const headers of [{}, { Origin: running.origin }, { 'Sec-Fetch-Site': 'same-site' }]) {
      const forged = await call(running.origin, 'POST', '/logout', { headers: { Cookie: pair, ...headers } });
      assert.equal(forged.status, 403, `a forged sign-out (${JSON.stringify(headers)})`);
      assert.equal((await call(running.origin, 'GET', '/api/me', { headers: { Cookie: pair } })).status, 200);
    }
    const out = await call(running.origin, 'POST', '/logout', {
      headers: { Cookie: pair, Origin: running.origin, 'Sec-Fetch-Site': 'same-origin' },
    });
    assert.equal(out.status, 303);
    assert.match(
      String(out.headers['set-cookie']),
      /^rimthan_console=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/,
    );
    assert.equal((await call(running.origin, 'GET', '/api/me', { headers: { Cookie: pair } })).status, 401);
  });
});

describe('console API: the operator’s session list', () => {
  let running: RunningConsole;
  let cookie = '';
  let csrf = '';
  const answers: string[] = [];
  const get = async (path: string): Promise<Answer> => {
    const answer = await call(running.origin, 'GET', path, { headers: { Cookie: cookie } });
    answers.push(answer.text);
    return answer;
  };
  const start = async (session: string): Promise<void> => {
    const started = await call(running.origin, 'POST', '/api/runs', {
      headers: {
        Cookie: cookie,
        Origin: running.origin,
        'Sec-Fetch-Site': 'same-origin',
        'X-Rimthan-Csrf': csrf,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        session,
        definition_name: APPROVAL_FLOW.name,
        definition_version: APPROVAL_FLOW.version,
        input: APPROVAL_FLOW.input,
      }),
    });
    assert.equal(started.status, 200, started.text);
  };
  before(async () => {
    running = await startConsoleCli([]);
    const link = new URL(running.url);
    const signed = await call(running.origin, 'GET', `${link.pathname}${link.search}`);
    cookie = String(signed.headers['set-cookie']).split(';')[0] ?? '';
    csrf = csrfIn(signed.text);
  });
  after(async () => {
    assert.equal(await running.stop(), 0);
    for (const text of [...answers, running.stderr.join('\n')]) assert.ok(!text.includes(MARKER), 'the marker leaked');
  });

  test('lists every session of the store with its runs, a page at a time through the cursor', async () => {
    assert.deepEqual((await get('/api/sessions')).json, { sessions: [] });
    await start('team-b');
    await start('team-a');
    await start('team-a');
    await start('team-c');
    const all = await get('/api/sessions');
    assert.equal(all.status, 200, all.text);
    const sessions = all.json['sessions'] as { session: string; runs: number; last_activity: string }[];
    assert.deepEqual(
      sessions.map((x) => [x.session, x.runs]),
      [
        ['team-a', 2],
        ['team-b', 1],
        ['team-c', 1],
      ],
    );
    for (const x of sessions) assert.ok(!Number.isNaN(Date.parse(x.last_activity)));
    const seen: string[] = [];
    let path = '/api/sessions?limit=2';
    for (let i = 0; i < 5; i++) {
      const page = await get(path);
      const listed = page.json['sessions'] as { session: string }[];
      assert.ok(listed.length <= 2);
      seen.push(...listed.map((x) => x.session));
      const next = page.json['next'];
      if (typeof next !== 'string') break;
      path = `/api/sessions?limit=2&after=${next}`;
    }
    assert.deepEqual(seen, ['team-a', 'team-b', 'team-c'], 'every session once, and no empty last page');
    const first = (await get('/api/sessions?limit=1')).json['next'] as string;
    assert.deepEqual(
      ((await get(`/api/sessions?after=${first}`)).json['sessions'] as { session: string }[]).map((x) => x.session),
      ['team-b', 'team-c'],
    );
    assert.equal((await get(`/api/sessions?after=${first}=`)).json.error?.code, 'invalid_arguments', 'padded');
    const chosen = await get('/api/runs?session=team-a');
    assert.equal((chosen.json['runs'] as unknown[]).length, 2);
    assert.equal((await get('/api/runs?session=nobody-yet')).status, 200, 'the operator may name an empty session');
  });
});

describe('rimthan console refuses to serve beyond loopback without credentials', () => {
  test('--host 0.0.0.0 without tokens is a usage error naming the fix', async () => {
    const io = captureIo(tmpdir(), {});
    const code = await runCli(['console', '--host', '0.0.0.0', '--port', '0'], io);
    assert.equal(code, 2);
    assert.match(io.stderr.join('\n'), /--admin-token-file or RIMTHAN_ADMIN_BEARER_TOKEN/);
  });

  test('a short admin token is refused, naming the variable', async () => {
    const io = captureIo(tmpdir(), { RIMTHAN_ADMIN_BEARER_TOKEN: 'short' });
    assert.equal(await runCli(['console', '--port', '0'], io), 1);
    assert.match(io.stderr.join('\n'), /RIMTHAN_ADMIN_BEARER_TOKEN must be 16 to 4096/);
  });
});
