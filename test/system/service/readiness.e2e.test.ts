/**
 * Health a proxy can use (issue 20, items 2 and 14), against real `rimthan serve` processes and a real console: every
 * listener answers `GET /healthz` and `GET /readyz` without a credential but after its Host check, with tiny
 * `no-store` bodies that name no release; a replica on an empty store is `no_active_release` until one is activated;
 * after SIGTERM it says `draining` while it still answers calls; a rollback to a release whose file is gone is refused
 * (as the PostgreSQL store refuses it) and the replica stays ready on what it serves.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';
import { startConsoleCli } from '../../console/support.js';
import { health } from '../../support/health.js';
import { adminCall, eventually, MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';

const DIST = join(packageRoot(), 'releases', 'dist');
const OLD = 'research-2026.11.1';
const NEW = 'research-2026.11.2';
const PARTICIPANT_TOKEN = 'participant-token-0123456789abcdef';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123';
const SECRET = 'readiness-test-secret-0123456789abcdef0123456789';

const originOf = (url: string): string => new URL(url).origin;

/** `rimthan admin ...` as an operator runs it. */
function adminCli(
  args: readonly string[],
  adminUrl: string,
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [MAIN, 'admin', ...args, '--url', adminUrl], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('health on every listener of a workflow-engine replica (folder store)', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-readiness-'));
  const store = join(work, 'releases');
  let serve: ServeProcess;
  let mcp: string;
  let admin: string;

  before(async () => {
    writeFileSync(join(work, 'participants'), `${PARTICIPANT_TOKEN}\n`);
    writeFileSync(join(work, 'admins'), `${ADMIN_TOKEN}\n`);
    mkdirSync(store);
    serve = await spawnServe(
      [
        ...['--transport', 'http', '--port', '0', '--releases', store],
        ...[
          '--token-file',
          join(work, 'participants'),
          '--admin-port',
          '0',
          '--admin-token-file',
          join(work, 'admins'),
        ],
        ...['--drain-seconds', '300'],
      ],
      { RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET, XDG_STATE_HOME: work, HOME: work },
    );
    mcp = originOf(serve.url);
    admin = originOf(serve.adminUrl ?? '');
  });
  after(async () => {
    await serve?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('an empty store: live, not ready (no_active_release) on both listeners, without a credential', async () => {
    for (const origin of [mcp, admin]) {
      const live = await health(origin, '/healthz');
      assert.equal(live.status, 200);
      assert.deepEqual(live.body, { status: 'ok' });
      assert.equal(live.headers['cache-control'], 'no-store');
      const ready = await health(origin, '/readyz');
      assert.equal(ready.status, 503, origin);
      assert.deepEqual(ready.body, { status: 'not_ready', reason: 'no_active_release' });
      assert.equal(ready.headers['cache-control'], 'no-store');
    }
    // What the old Caddy example checked: /mcp needs the participant's token, so a proxy without one sees 401.
    assert.equal((await health(mcp, '/mcp')).status, 401);
  });

  test('ready once a release is activated; the answer names no release, version or store', async () => {
    assert.equal(adminCli(['publish', join(DIST, `${OLD}.json`)], serve.adminUrl ?? '').status, 0);
    assert.equal(adminCli(['activate', OLD], serve.adminUrl ?? '').status, 0);
    for (const origin of [mcp, admin]) {
      await eventually(`${origin} ready`, async () => (await health(origin, '/readyz')).status === 200);
      const ready = await health(origin, '/readyz');
      assert.deepEqual(ready.body, { status: 'ready' });
      assert.equal(ready.headers['cache-control'], 'no-store');
      assert.equal((await health(origin, '/readyz', undefined, 'HEAD')).status, 200);
      const post = await health(origin, '/readyz', undefined, 'POST');
      assert.equal(post.status, 405);
      assert.equal(post.headers['allow'], 'GET, HEAD');
    }
  });

  test('the health pair still passes the Host rule of the MCP listener', async () => {
    const refused = await health(mcp, '/readyz', 'evil.example');
    assert.equal(refused.status, 403);
    assert.equal((await health(mcp, '/healthz', 'evil.example')).status, 403);
  });

  test('a rollback to a release whose file is gone is refused (422 release_unavailable); still ready', async () => {
    assert.equal(adminCli(['publish', join(DIST, `${NEW}.json`)], serve.adminUrl ?? '').status, 0);
    const activated = adminCli(['activate', NEW], serve.adminUrl ?? '');
    assert.equal(activated.status, 0, activated.stderr);
    rmSync(join(store, `${OLD}.json`));
    const rolled = adminCli(['rollback'], serve.adminUrl ?? '');
    assert.equal(rolled.status, 1, rolled.stdout);
    assert.match(rolled.stderr, /release_unavailable/);
    const channels = await adminCall(serve.adminUrl ?? '', ADMIN_TOKEN, 'GET', '/channels');
    assert.deepEqual(channels.value['channels'], [
      { channel: 'active', release: NEW },
      { channel: 'migration-target', release: null },
    ]);
    const ready = await adminCall(serve.adminUrl ?? '', ADMIN_TOKEN, 'GET', '/readyz');
    assert.equal(ready.value['status'], 'ready');
    assert.deepEqual((await health(mcp, '/readyz')).body, { status: 'ready' });
  });

  test('after SIGTERM: draining (503) on both listeners while calls are still answered; a second signal stops', async () => {
    serve.child.kill('SIGTERM');
    for (const origin of [mcp, admin]) {
      await eventually(`${origin} draining`, async () => (await health(origin, '/readyz')).status === 503);
      assert.deepEqual((await health(origin, '/readyz')).body, { status: 'not_ready', reason: 'draining' });
    }
    const call = await fetch(serve.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${PARTICIPANT_TOKEN}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(call.status, 200, await call.text());
    await serve.stop();
    assert.notEqual(serve.child.exitCode ?? serve.child.signalCode, null);
  });
});

describe('health on the runs profile and the console', { timeout: 120_000 }, () => {
  test('runs profile over HTTP: live and ready once listening, on the MCP and admin listeners', async () => {
    const work = mkdtempSync(join(tmpdir(), 'rimthan-readiness-runs-'));
    writeFileSync(join(work, 'admins'), `${ADMIN_TOKEN}\n`);
    const serve = await spawnServe(
      [
        ...['--profile', 'runs', '--transport', 'http', '--port', '0', '--store', join(work, 'runs.db')],
        ...['--admin-port', '0', '--admin-token-file', join(work, 'admins')],
      ],
      { RIMTHAN_MCP_BEARER_TOKEN: PARTICIPANT_TOKEN, XDG_STATE_HOME: work, HOME: work },
      { cwd: work },
    );
    try {
      for (const origin of [originOf(serve.url), originOf(serve.adminUrl ?? '')]) {
        assert.deepEqual((await health(origin, '/healthz')).body, { status: 'ok' });
        const ready = await health(origin, '/readyz');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body, { status: 'ready' });
      }
    } finally {
      await serve.stop();
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('the console: live and ready without signing in, behind its Host rule', async () => {
    const running = await startConsoleCli([]);
    try {
      const live = await health(running.origin, '/healthz');
      assert.equal(live.status, 200);
      assert.deepEqual(live.body, { status: 'ok' });
      const ready = await health(running.origin, '/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'ready' });
      assert.equal(ready.headers['cache-control'], 'no-store');
      assert.equal((await health(running.origin, '/readyz', 'evil.example')).status, 403);
      // Everything else still needs a sign-in.
      assert.equal((await health(running.origin, '/api/releases')).status, 401);
    } finally {
      await running.stop();
    }
  });
});
