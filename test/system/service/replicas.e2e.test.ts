/**
 * Rimthan as an organisation's service (issue 7): two `rimthan serve --transport http` processes share one PostgreSQL
 * release store and one signing key. One research-decision workflow alternates between them from start to completed
 * while a newer release is published and activated through the Admin API: the old checkpoint stays on its pinned
 * release on both, new starts get the new release on both once they picked it up, `rimthan admin rollback` restores
 * the previous one, a migration through the migration-target channel previews then restarts. A release row whose bytes
 * are changed in the database is never served: readyz says degraded and calls are answered from the last verified
 * snapshot. Every admin action is in the audit trail under the admin principal.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { packageRoot } from '../../../src/package/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { principalIdOf } from '../../../src/identity/index.js';
import { callTool } from '../../mcp/support/connect.js';
import { confirmed, Participant } from '../../mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../../mcp/support/research-run.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../../support/postgres.js';
import { adminCall, eventually, httpClient, MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { sample, scrapeMetrics } from '../../support/metrics-scrape.js';

const ROOT = packageRoot();
const OLD = 'research-2026.11.1';
const NEW = 'research-2026.12.1';
const PARTICIPANT_TOKEN = 'participant-token-0123456789abcdef';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123';
const ADMIN_ID = principalIdOf({ kind: 'bearer', token: ADMIN_TOKEN });
const SECRET = 'replica-test-secret-0123456789abcdef0123456789';

const skip = await postgresSkipReason();

/** Builds the source of `OLD` as release `NEW` with workflow version 1.3.0, through the real `registry build`. */
function buildNewerRelease(work: string): string {
  const source = join(work, 'src');
  cpSync(join(ROOT, 'releases', 'src', 'research-decision-1.2'), source, { recursive: true });
  const registry = join(source, 'registry.yaml');
  writeFileSync(registry, readFileSync(registry, 'utf8').replace(`release: ${OLD}`, `release: ${NEW}`));
  renameSync(
    join(source, 'workflows', 'research-decision@1.2.0.yaml'),
    join(source, 'workflows', 'research-decision@1.3.0.yaml'),
  );
  const out = join(work, `${NEW}.json`);
  const built = spawnSync(process.execPath, [MAIN, 'registry', 'build', source, '--out', out], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  return out;
}

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

describe('two replicas sharing a PostgreSQL release store', { skip: skip ?? false, timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-replicas-'));
  const schema = uniqueSchema('replicas');
  const storeUrl = `${TEST_PG_URL}?schema=${schema}`;
  let a: ServeProcess;
  let b: ServeProcess;
  let clientA: Client;
  let clientB: Client;
  let newFile: string;
  const replicas = (): { name: string; admin: string; client: Client }[] => [
    { name: 'A', admin: a.adminUrl ?? '', client: clientA },
    { name: 'B', admin: b.adminUrl ?? '', client: clientB },
  ];

  /** Waits until both replicas serve `active` (and `target`, when given) as verified snapshots. */
  async function bothServe(active: string, target?: string | null): Promise<void> {
    for (const r of replicas()) {
      await eventually(`replica ${r.name} serves ${active}`, async () => {
        const ready = await adminCall(r.admin, ADMIN_TOKEN, 'GET', '/readyz');
        const s = ready.value as { active?: { release: string } | null; migration_target?: { release: string } | null };
        return (
          s.active?.release === active && (target === undefined || (s.migration_target?.release ?? null) === target)
        );
      });
    }
  }

  /** A participant whose calls alternate between the two replicas. */
  function alternating(): Participant {
    let n = 0;
    return new Participant((name, args) => callTool(n++ % 2 === 0 ? clientA : clientB, name, args));
  }

  before(async () => {
    newFile = buildNewerRelease(work);
    writeFileSync(join(work, 'participants'), `${PARTICIPANT_TOKEN}\n`);
    writeFileSync(join(work, 'admins'), `${ADMIN_TOKEN}\n`);
    const env = { RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET, XDG_STATE_HOME: work, HOME: work };
    const args = [
      '--transport',
      'http',
      '--port',
      '0',
      '--releases',
      storeUrl,
      '--token-file',
      join(work, 'participants'),
      '--admin-port',
      '0',
      '--admin-token-file',
      join(work, 'admins'),
    ];
    // Both start on an empty store: not ready until a release is published and activated.
    [a, b] = await Promise.all([spawnServe(args, env), spawnServe(args, env)]);
    clientA = await httpClient(a.url, PARTICIPANT_TOKEN);
    clientB = await httpClient(b.url, PARTICIPANT_TOKEN);
  });

  after(async () => {
    await clientA?.close().catch(() => undefined);
    await clientB?.close().catch(() => undefined);
    await Promise.all([a?.stop(), b?.stop()]);
    await dropSchema(schema);
    rmSync(work, { recursive: true, force: true });
  });

  test('an empty store is not ready; credentials: a participant token on the admin listener is 403', async () => {
    const ready = await adminCall(a.adminUrl ?? '', ADMIN_TOKEN, 'GET', '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.value['status'], 'not_ready');
    const participant = await adminCall(a.adminUrl ?? '', PARTICIPANT_TOKEN, 'GET', '/releases');
    assert.equal(participant.status, 403);
    assert.match(participant.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    const nobody = await adminCall(a.adminUrl ?? '', 'not-a-known-token-0123456789', 'GET', '/releases');
    assert.equal(nobody.status, 401);
    assert.equal(nobody.headers.get('cache-control'), 'no-store');
    // An admin token on /mcp is just a participant.
    const adminAsParticipant = await httpClient(a.url, ADMIN_TOKEN);
    assert.equal((await adminAsParticipant.listTools()).tools.length, 4);
    await adminAsParticipant.close();
  });

  test('one workflow alternates between the replicas while a newer release is activated; its checkpoint stays pinned', async () => {
    const published = adminCli(['publish', join(ROOT, 'releases', 'dist', `${OLD}.json`)], a.adminUrl ?? '');
    assert.equal(published.status, 0, published.stderr);
    assert.match(published.stdout, new RegExp(`published ${OLD}`));
    assert.equal(adminCli(['activate', OLD], a.adminUrl ?? '').status, 0);
    await bothServe(OLD, null);

    const p = alternating();
    await toRouteQuestion(p);
    assert.equal(p.checkpoint?.['registry_release'], OLD);

    // The newer release, published and activated through the other replica's Admin API in the middle of the run.
    const publishNew = adminCli(['publish', newFile, '--json'], b.adminUrl ?? '');
    assert.equal(publishNew.status, 0, publishNew.stderr);
    assert.equal((JSON.parse(publishNew.stdout) as JsonObject)['created'], true);
    const activated = adminCli(['activate', NEW], b.adminUrl ?? '');
    assert.equal(activated.status, 0, activated.stderr);
    assert.equal(activated.stdout.trim(), `active: ${OLD} -> ${NEW}`);
    await bothServe(NEW);

    const statuses = await fromRouteToCompletion(p);
    assert.deepEqual(statuses, ['validation_failed', 'advanced', 'completed']);
    assert.equal(p.checkpoint?.['registry_release'], OLD, 'the checkpoint stayed on its pinned release');
    assert.deepEqual(p.checkpoint?.['workflow'], { id: 'research-decision', version: '1.2.0' });

    for (const r of replicas()) {
      const fresh = new Participant((name, args) => callTool(r.client, name, args));
      await fresh.start();
      assert.equal(fresh.checkpoint?.['registry_release'], NEW, `a new start on ${r.name} gets the new release`);
      assert.deepEqual(fresh.checkpoint?.['workflow'], { id: 'research-decision', version: '1.3.0' });
    }
  });

  test('rollback restores the previous active release on both replicas', async () => {
    const rolled = adminCli(['rollback'], a.adminUrl ?? '');
    assert.equal(rolled.status, 0, rolled.stderr);
    assert.equal(rolled.stdout.trim(), `rolled back active: ${NEW} -> ${OLD}`);
    await bothServe(OLD);
    for (const r of replicas()) {
      const fresh = new Participant((name, args) => callTool(r.client, name, args));
      await fresh.start();
      assert.equal(fresh.checkpoint?.['registry_release'], OLD, `a new start on ${r.name} after rollback`);
    }
  });

  test('migration through the migration-target channel: refused before it is set, then previews and restarts', async () => {
    const p = alternating();
    await p.start();
    assert.equal(p.checkpoint?.['registry_release'], OLD);
    const migration = (confirm: boolean): JsonObject => ({
      target_release: NEW,
      workflow_version: '1.3.0',
      host: p.host(),
      confirm,
    });
    const refused = await p.call('rimthan.continue_workflow', {
      checkpoint: p.checkpoint,
      confirmed_state: p.state,
      migration: migration(false),
    });
    assert.equal(refused.isError, true);
    assert.equal((refused.value['error'] as JsonObject)['reason'], 'migration_unavailable');

    const set = adminCli(['migration-target', NEW], b.adminUrl ?? '');
    assert.equal(set.status, 0, set.stderr);
    await bothServe(OLD, NEW);
    const preview = await p.ok('rimthan.continue_workflow', {
      checkpoint: p.checkpoint,
      confirmed_state: p.state,
      migration: migration(false),
    });
    assert.equal(preview['status'], 'blocked');
    assert.equal(((preview['migration'] as JsonObject)['target'] as JsonObject)['registry_release'], NEW);
    const moved = await p.ok('rimthan.continue_workflow', {
      checkpoint: p.checkpoint,
      confirmed_state: p.state,
      next_confirmed_state: confirmed(p.state['state'] as JsonObject),
      migration: migration(true),
    });
    assert.equal(moved['status'], 'active', JSON.stringify(moved['blockers']));
    const checkpoint = moved['checkpoint'] as JsonObject;
    assert.equal(checkpoint['registry_release'], NEW);
    assert.equal(checkpoint['current_step'], 'setup-workspace');
    assert.deepEqual(checkpoint['workflow'], { id: 'research-decision', version: '1.3.0' });

    const cleared = adminCli(['migration-target', '--clear'], a.adminUrl ?? '');
    assert.equal(cleared.status, 0, cleared.stderr);
    await bothServe(OLD, null);
  });

  test('a release row whose bytes changed in the database is never served: readyz degraded, the last verified snapshot answers', async () => {
    const original = await withPgClient(async (c) => {
      const row = await c.query<{ bytes: Buffer }>(`SELECT bytes FROM "${schema}".releases WHERE release = $1`, [OLD]);
      const bytes = row.rows[0]?.bytes;
      assert.ok(bytes);
      const text = bytes.toString('utf8').replace('Research to decision', 'Research to indecision');
      await c.query(`UPDATE "${schema}".releases SET bytes = $2 WHERE release = $1`, [OLD, Buffer.from(text)]);
      return bytes;
    });
    for (const r of replicas()) {
      await eventually(`replica ${r.name} reports the corrupt row`, async () => {
        const ready = await adminCall(r.admin, ADMIN_TOKEN, 'GET', '/readyz');
        return ready.status === 200 && ready.value['status'] === 'degraded';
      });
      const ready = await adminCall(r.admin, ADMIN_TOKEN, 'GET', '/readyz');
      assert.match(String(ready.value['reason']), new RegExp(`active: ${OLD} release_bytes_mismatch`));
      assert.equal((ready.value['active'] as JsonObject)['release'], OLD);
      const p = new Participant((name, args) => callTool(r.client, name, args));
      await p.start();
      assert.equal(p.checkpoint?.['registry_release'], OLD);
      assert.equal((await p.passStep())['status'], 'advanced', `replica ${r.name} answers from its verified snapshot`);
    }
    assert.equal(a.stderr().split('release refresh refused').length - 1, 1, 'said once in the log');
    const show = adminCli(['show', OLD, '--json'], a.adminUrl ?? '');
    assert.equal(show.status, 0, show.stderr);
    assert.equal(((JSON.parse(show.stdout) as JsonObject)['release'] as JsonObject)['verified'], false);

    await withPgClient((c) =>
      c.query(`UPDATE "${schema}".releases SET bytes = $2 WHERE release = $1`, [OLD, original]),
    );
    for (const r of replicas()) {
      await eventually(`replica ${r.name} recovers`, async () => {
        const ready = await adminCall(r.admin, ADMIN_TOKEN, 'GET', '/readyz');
        return ready.value['status'] === 'ready';
      });
    }
  });

  test('the audit trail has every admin action with the admin principal, previous and new value', async () => {
    const { status, value } = await adminCall(a.adminUrl ?? '', ADMIN_TOKEN, 'GET', '/audit');
    assert.equal(status, 200);
    const rows = (
      value['audit'] as {
        actor: string;
        action: string;
        subject: string;
        previous: string | null;
        value: string | null;
      }[]
    )
      .reverse()
      .map((e) => [
        e.actor === ADMIN_ID ? 'admin' : e.actor,
        e.action,
        e.subject,
        e.previous,
        e.action === 'release.publish' ? 'digest' : e.value,
      ]);
    assert.deepEqual(rows, [
      ['admin', 'release.publish', OLD, null, 'digest'],
      ['admin', 'channel.set', 'active', null, OLD],
      ['admin', 'release.publish', NEW, null, 'digest'],
      ['admin', 'channel.set', 'active', OLD, NEW],
      ['admin', 'channel.set', 'active', NEW, OLD],
      ['admin', 'channel.set', 'migration-target', null, NEW],
      ['admin', 'channel.clear', 'migration-target', NEW, null],
    ]);
    const metrics = await scrapeMetrics(a.adminUrl ?? '', ADMIN_TOKEN);
    assert.equal(sample(metrics, `rimthan_release_info{channel="active",release="${OLD}"}`), 1);
    assert.ok(!metrics.includes('bearer-'), 'no principal in the metrics');
  });
});
