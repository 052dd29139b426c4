/**
 * The Admin API over real HTTP on a folder store: a tampered publish names the failing entry, the same name with
 * other bytes is 409, the same bytes again 200, a stale expected_current is 409, the audit trail has each action under
 * the admin principal; credentials, body caps, media type and no-store on every answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { adminAuthenticator, startAdminServer } from '../../src/admin/index.js';
import type { AdminEndpoint } from '../../src/admin/index.js';
import { packageRoot } from '../../src/package/index.js';
import { principalIdOf, staticTokenAuthenticator } from '../../src/identity/index.js';
import { FolderReleaseStore, ReleaseFollower } from '../../src/registry/index.js';
import { tempDir } from '../registry/helpers.js';
import { rawExchange } from '../system/security/support.js';
import { adminCall } from '../support/serve-process.js';
import { sample, scrapeMetrics } from '../support/metrics-scrape.js';
import { releaseMetrics } from '../support/release-metrics.js';

const ADMIN = 'admin-token-abcdefghijklmnop0123';
const PARTICIPANT = 'participant-token-abcdefghijklm';
const DIST = join(packageRoot(), 'releases', 'dist');
const OLD = 'research-2026.10.1';
const NEW = 'research-2026.11.1';
const bytesOf = (release: string): Buffer => readFileSync(join(DIST, `${release}.json`));

describe('Admin API', () => {
  const { dir, cleanup } = tempDir('rimthan-admin-api-');
  let endpoint: AdminEndpoint;
  let follower: ReleaseFollower;
  let url: string;
  const store = new FolderReleaseStore(dir);

  before(async () => {
    follower = await ReleaseFollower.start(store, { pollIntervalMs: 0, allowEmpty: true });
    endpoint = await startAdminServer({
      port: 0,
      releases: { store, follower },
      authenticator: adminAuthenticator([ADMIN], staticTokenAuthenticator([PARTICIPANT])),
      metrics: releaseMetrics(follower),
    });
    url = endpoint.url;
  });
  after(async () => {
    await endpoint.close();
    await follower.stop();
    cleanup();
  });

  test('healthz needs no credential; everything else needs rimthan:admin (participant 403, none 401)', async () => {
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('cache-control'), 'no-store');
    const none = await fetch(`${url}/releases`);
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer realm="rimthan-admin"/);
    const participant = await adminCall(url, PARTICIPANT, 'GET', '/releases');
    assert.equal(participant.status, 403);
    assert.equal((participant.value['error'] as Record<string, unknown>)['code'], 'forbidden');
    assert.equal((await adminCall(url, ADMIN, 'GET', '/readyz')).status, 503, 'not ready before any activation');
  });

  test('a tampered release is refused naming the failing entry', async () => {
    const file = JSON.parse(bytesOf(OLD).toString('utf8')) as {
      workflows: { id: string; version: string; title: string }[];
    };
    const workflow = file.workflows[0];
    assert.ok(workflow);
    workflow.title = 'Quietly changed after the build';
    const refused = await adminCall(url, ADMIN, 'POST', '/releases', Buffer.from(JSON.stringify(file)));
    assert.equal(refused.status, 400);
    const error = refused.value['error'] as Record<string, unknown>;
    assert.equal(error['code'], 'release_invalid');
    assert.equal(error['reason'], 'manifest_mismatch');
    assert.equal(error['entry'], `workflow ${workflow.id}@${workflow.version}`);
    assert.deepEqual(store.list(), []);
  });

  test('publish: 201 created, 200 for the same bytes, 409 for the same name with other bytes', async () => {
    const created = await adminCall(url, ADMIN, 'POST', '/releases', bytesOf(OLD));
    assert.equal(created.status, 201);
    assert.equal(created.value['release'], OLD);
    const again = await adminCall(url, ADMIN, 'POST', '/releases', bytesOf(OLD));
    assert.equal(again.status, 200);
    assert.equal(again.value['created'], false);
    // The same release re-serialised with other (still verifying) bytes: pretty-printed JSON.
    const other = Buffer.from(`${JSON.stringify(JSON.parse(bytesOf(OLD).toString('utf8')), null, 1)}\n`);
    const conflict = await adminCall(url, ADMIN, 'POST', '/releases', other);
    assert.equal(conflict.status, 409);
    assert.equal((conflict.value['error'] as Record<string, unknown>)['code'], 'release_immutable');
    assert.equal((await adminCall(url, ADMIN, 'POST', '/releases', bytesOf(NEW))).status, 201);
    const shown = await adminCall(url, ADMIN, 'GET', `/releases/${OLD}`);
    assert.equal(shown.status, 200);
    const release = shown.value['release'] as Record<string, unknown>;
    assert.equal(release['verified'], true);
    assert.equal(release['published_by'], principalIdOf({ kind: 'bearer', token: ADMIN }));
    assert.deepEqual(release['workflows'], [
      { id: 'research-decision', version: '1.1.0', title: 'Research to decision' },
    ]);
    assert.equal((await adminCall(url, ADMIN, 'GET', '/releases/research-2099.1.1')).status, 404);
  });

  test('channels: compare-and-swap (a stale expected_current is 409), clear the migration target, history', async () => {
    const first = await adminCall(url, ADMIN, 'PUT', '/channels/active', { release: OLD, expected_current: null });
    assert.equal(first.status, 200, JSON.stringify(first.value));
    assert.equal(follower.active().release, OLD, 'the local follower refreshes at once');
    assert.equal((await adminCall(url, ADMIN, 'GET', '/readyz')).value['status'], 'ready');
    const stale = await adminCall(url, ADMIN, 'PUT', '/channels/active', { release: NEW, expected_current: null });
    assert.equal(stale.status, 409);
    assert.equal((stale.value['error'] as Record<string, unknown>)['code'], 'channel_conflict');
    const ok = await adminCall(url, ADMIN, 'PUT', '/channels/active', { release: NEW, expected_current: OLD });
    assert.equal(ok.status, 200);
    const missing = await adminCall(url, ADMIN, 'PUT', '/channels/migration-target', { release: 'research-2099.1.1' });
    assert.equal(missing.status, 422);
    const unknownField = await adminCall(url, ADMIN, 'PUT', '/channels/active', { release: NEW, force: true });
    assert.equal(unknownField.status, 400);
    assert.equal((await adminCall(url, ADMIN, 'PUT', '/channels/migration-target', { release: NEW })).status, 200);
    assert.equal(
      (await adminCall(url, ADMIN, 'DELETE', `/channels/migration-target?expected_current=${OLD}`)).status,
      409,
    );
    assert.equal(
      (await adminCall(url, ADMIN, 'DELETE', `/channels/migration-target?expected_current=${NEW}`)).status,
      200,
    );
    assert.equal((await adminCall(url, ADMIN, 'DELETE', '/channels/active')).status, 405);
    const channels = await adminCall(url, ADMIN, 'GET', '/channels');
    assert.deepEqual(channels.value['channels'], [
      { channel: 'active', release: NEW },
      { channel: 'migration-target', release: null },
    ]);
    const history = await adminCall(url, ADMIN, 'GET', '/channels/history?channel=active');
    assert.deepEqual(
      (history.value['history'] as { previous: string | null; release: string }[]).map((h) => [h.previous, h.release]),
      [
        [OLD, NEW],
        [null, OLD],
      ],
    );
  });

  test('the audit trail has each action with who, what, previous and new value', async () => {
    const audit = await adminCall(url, ADMIN, 'GET', '/audit');
    const admin = principalIdOf({ kind: 'bearer', token: ADMIN });
    const rows = (audit.value['audit'] as Record<string, string | null>[]).reverse();
    assert.ok(rows.every((r) => r['actor'] === admin && typeof r['at'] === 'string'));
    assert.deepEqual(
      rows.map((r) => [r['action'], r['subject'], r['previous'], r['action'] === 'release.publish' ? '…' : r['value']]),
      [
        ['release.publish', OLD, null, '…'],
        ['release.publish', OLD, null, '…'],
        ['release.publish', NEW, null, '…'],
        ['channel.set', 'active', null, OLD],
        ['channel.set', 'active', OLD, NEW],
        ['channel.set', 'migration-target', null, NEW],
        ['channel.clear', 'migration-target', NEW, null],
      ],
    );
  });

  test('bodies: JSON only, capped; unknown paths 404; every answer no-store', async () => {
    const text = await fetch(`${url}/releases`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'text/plain' },
      body: 'x',
    });
    assert.equal(text.status, 415);
    const big = await fetch(`${url}/channels/active`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ release: NEW, padding: 'x'.repeat(20_000) }),
    });
    assert.equal(big.status, 413);
    assert.equal(big.headers.get('cache-control'), 'no-store');
    const nowhere = await adminCall(url, ADMIN, 'GET', '/nowhere');
    assert.equal(nowhere.status, 404);
    assert.equal(nowhere.headers.get('cache-control'), 'no-store');
    const metrics = await scrapeMetrics(url, ADMIN);
    assert.equal(sample(metrics, `rimthan_release_info{channel="active",release="${NEW}"}`), 1);
  });
  test("oversized headers and a malformed request get the Admin API's error shape (431, 400), not JSON-RPC's", async () => {
    const { host } = new URL(url);
    const cases = [
      {
        chunks: [`GET /admin/readyz HTTP/1.1\r\nHost: ${host}\r\nX-Pad: ${'p'.repeat(64 * 1024)}\r\n\r\n`],
        status: 431,
      },
      { chunks: ['NOT-HTTP\r\n\r\n'], status: 400 },
    ];
    for (const { chunks, status } of cases) {
      const reply = await rawExchange(url, chunks);
      assert.equal(reply.status, status, reply.raw.slice(0, 300));
      assert.equal(reply.headers['cache-control'], 'private, no-store');
      const body = JSON.parse(reply.body) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['error'], reply.body);
      const error = body['error'] as Record<string, unknown>;
      assert.equal(error['code'], status === 431 ? 'too_large' : 'invalid_arguments');
      assert.equal(typeof error['message'], 'string');
    }
  });
});
