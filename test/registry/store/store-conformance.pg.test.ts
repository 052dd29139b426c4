/**
 * One conformance suite for every release store (folder, PostgreSQL): immutable publishes verified exactly like
 * `verifyReleaseFile` (a tampered file names the failing entry), channels with compare-and-swap and history, the audit
 * trail of every action, and a follower that serves only verified releases and keeps its snapshot when a refresh is
 * corrupt.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import {
  buildRelease,
  FolderReleaseStore,
  PostgresReleaseStore,
  ReleaseFollower,
  serializeReleaseFile,
} from '../../../src/registry/index.js';
import type { ReleaseFile, ReleaseStore } from '../../../src/registry/index.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../../support/postgres.js';
import { edit, tempDir, withMinimalCopy } from '../helpers.js';

function releaseNamed(name: string, title = 'Minimal workflow'): ReleaseFile {
  return withMinimalCopy((dir) => {
    edit(dir, 'registry.yaml', 'release: test-2026.1.0', `release: ${name}`);
    edit(dir, 'workflows/mini@1.0.0.yaml', 'title: Minimal workflow', `title: ${title}`);
    const result = buildRelease(dir);
    assert.ok(result.ok);
    return result.file;
  });
}

const FIRST = serializeReleaseFile(releaseNamed('test-1.0.0'));
const SECOND = serializeReleaseFile(releaseNamed('test-2.0.0'));
const FIRST_CHANGED = serializeReleaseFile(releaseNamed('test-1.0.0', 'Changed title'));

/** The release bytes with one asset's content changed (its recorded digest left as it was). */
function tampered(bytes: Uint8Array): { bytes: Uint8Array; entry: string } {
  const file = JSON.parse(Buffer.from(bytes).toString('utf8')) as {
    assets: { kind: string; id: string; version: string; content: string }[];
  };
  const asset = file.assets[0];
  assert.ok(asset);
  asset.content += '\nslipped in after the build';
  return {
    bytes: Buffer.from(`${JSON.stringify(file)}\n`),
    entry: `asset ${asset.kind}/${asset.id}@${asset.version}`,
  };
}

interface Backend {
  readonly name: string;
  open(): Promise<{ store: ReleaseStore; corrupt(release: string): Promise<void>; cleanup(): Promise<void> }>;
  skip?: string | false;
}

const pgSkip = await postgresSkipReason();

const BACKENDS: Backend[] = [
  {
    name: 'folder',
    open() {
      const { dir, cleanup } = tempDir('rimthan-release-conformance-');
      const store = new FolderReleaseStore(dir);
      return Promise.resolve({
        store,
        corrupt: async (release: string) => {
          const { writeFileSync } = await import('node:fs');
          writeFileSync(`${dir}/${release}.json`, '{"format":"rimthan.release/v1","manifest":{}}\n');
          // The folder store caches verified loads by name; a fresh store is what a restarted process sees.
        },
        cleanup: () => Promise.resolve(cleanup()),
      });
    },
  },
  {
    name: 'postgres',
    skip: pgSkip ?? false,
    async open() {
      const schema = uniqueSchema('rel_conf');
      const store = new PostgresReleaseStore({ connectionString: TEST_PG_URL, schema });
      await store.open();
      return {
        store,
        corrupt: (release: string) =>
          withPgClient(async (c) => {
            await c.query(`UPDATE "${schema}".releases SET bytes = convert_to('{}', 'UTF8') WHERE release = $1`, [
              release,
            ]);
          }),
        cleanup: async () => {
          await store.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

for (const backend of BACKENDS) {
  describe(`release store conformance: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    let opened: Awaited<ReturnType<Backend['open']>>;
    let store: ReleaseStore;
    before(async () => {
      opened = await backend.open();
      store = opened.store;
    });
    after(async () => opened.cleanup());

    test('a tampered release is refused naming the failing entry, and nothing is stored', async () => {
      const bad = tampered(FIRST);
      await assert.rejects(store.publishRelease(bad.bytes, 'admin-a'), (e: Record<string, unknown>) => {
        assert.equal(e['code'], 'release_invalid');
        assert.equal(e['reason'], 'digest_mismatch');
        assert.equal(e['entry'], bad.entry);
        assert.match(String(e['message']), new RegExp(bad.entry.replace(/[/.@]/g, '\\$&')));
        return true;
      });
      assert.deepEqual(await store.listReleases(), []);
    });

    test('publish is immutable: created once, the same bytes again unchanged, other bytes under the name refused', async () => {
      const created = await store.publishRelease(FIRST, 'admin-a');
      assert.equal(created.created, true);
      assert.equal(created.release, 'test-1.0.0');
      const again = await store.publishRelease(FIRST, 'admin-b');
      assert.equal(again.created, false);
      await assert.rejects(store.publishRelease(FIRST_CHANGED, 'admin-a'), { code: 'release_immutable' });
      await store.publishRelease(SECOND, 'admin-a');
      const listed = await store.listReleases();
      assert.deepEqual(
        listed.map((r) => r.release),
        ['test-1.0.0', 'test-2.0.0'],
      );
      const info = await store.releaseInfo('test-1.0.0');
      assert.equal(info?.published_by, 'admin-a', 'the first publisher is kept');
      assert.equal(info?.manifest_sha256, created.manifest_sha256);
      const loaded = await store.loadRelease('test-1.0.0');
      assert.ok(loaded.ok);
      assert.equal(loaded.release.manifest_sha256, created.manifest_sha256);
    });

    test('channels: set with compare-and-swap, a stale expected value is refused, history newest first', async () => {
      const channels = await store.readChannels();
      assert.deepEqual(
        [channels['active'].ok && channels['active'].release, channels['migration-target'].ok],
        [null, true],
      );
      await store.setChannel({ channel: 'active', release: 'test-1.0.0', expectedCurrent: null, actor: 'admin-a' });
      await assert.rejects(
        store.setChannel({ channel: 'active', release: 'test-2.0.0', expectedCurrent: null, actor: 'admin-b' }),
        { code: 'channel_conflict' },
      );
      await store.setChannel({ channel: 'active', release: 'test-2.0.0', expectedCurrent: 'test-1.0.0', actor: 'a' });
      await assert.rejects(store.setChannel({ channel: 'active', release: 'test-9.0.0', actor: 'a' }), {
        code: 'release_unavailable',
      });
      await assert.rejects(store.setChannel({ channel: 'active', release: null, actor: 'a' }), {
        code: 'invalid_arguments',
      });
      await store.setChannel({ channel: 'migration-target', release: 'test-2.0.0', actor: 'admin-a' });
      await store.setChannel({ channel: 'migration-target', release: null, expectedCurrent: 'test-2.0.0', actor: 'b' });
      const after = await store.readChannels();
      assert.deepEqual(after['active'].ok && after['active'].release, 'test-2.0.0');
      assert.deepEqual(after['migration-target'].ok && after['migration-target'].release, null);
      const active = await store.channelHistory({ channel: 'active' });
      assert.deepEqual(
        active.map((c) => [c.previous, c.release]),
        [
          ['test-1.0.0', 'test-2.0.0'],
          [null, 'test-1.0.0'],
        ],
      );
      assert.equal((await store.channelHistory()).length, 4);
    });

    test('the audit trail has every action: who, what, previous and new value', async () => {
      const trail = await store.auditTrail();
      const rows = trail.map((e) => [e.actor, e.action, e.subject, e.previous, e.value === null ? null : 'v']);
      assert.deepEqual(rows.reverse(), [
        ['admin-a', 'release.publish', 'test-1.0.0', null, 'v'],
        ['admin-b', 'release.publish', 'test-1.0.0', null, 'v'],
        ['admin-a', 'release.publish', 'test-2.0.0', null, 'v'],
        ['admin-a', 'channel.set', 'active', null, 'v'],
        ['a', 'channel.set', 'active', 'test-1.0.0', 'v'],
        ['admin-a', 'channel.set', 'migration-target', null, 'v'],
        ['b', 'channel.clear', 'migration-target', 'test-2.0.0', null],
      ]);
      assert.ok(trail.every((e) => !Number.isNaN(Date.parse(e.at))));
    });

    test('a follower serves verified releases, follows the channels and keeps its snapshot when a release is corrupt', async () => {
      const failures: string[] = [];
      const targets: (string | undefined)[] = [];
      const follower = await ReleaseFollower.start(store, {
        pollIntervalMs: 0,
        events: { onRefreshFailed: (r) => failures.push(r), onMigrationTarget: (t) => targets.push(t) },
      });
      try {
        assert.equal(follower.active().release, 'test-2.0.0');
        assert.equal(follower.migrationTarget(), undefined);
        await store.setChannel({ channel: 'migration-target', release: 'test-1.0.0', actor: 'a' });
        await follower.refresh();
        assert.equal(follower.migrationTarget()?.release, 'test-1.0.0');
        assert.deepEqual(targets, ['test-1.0.0']);
        assert.equal(follower.state().degraded, null);

        // A release whose stored bytes changed is never served; the follower says so once and keeps the snapshot.
        await store.setChannel({ channel: 'active', release: 'test-1.0.0', actor: 'a' });
        await follower.refresh();
        assert.equal(follower.active().release, 'test-1.0.0');
        const verified = follower.active().manifest_sha256;
        await opened.corrupt('test-1.0.0');
        const fresh = backend.name === 'folder' ? new FolderReleaseStore((store as FolderReleaseStore).dir) : store;
        const other = await ReleaseFollower.start(fresh, { pollIntervalMs: 0 }).catch((e: unknown) => e);
        assert.equal((other as { code?: string }).code, 'no_active_release', 'a fresh replica refuses to start');
        await follower.refresh();
        await follower.refresh();
        assert.equal(follower.active().release, 'test-1.0.0', 'the last verified snapshot is kept');
        assert.equal(follower.active().manifest_sha256, verified);
        if (backend.name === 'postgres') {
          assert.match(follower.state().degraded ?? '', /active: test-1\.0\.0 release_bytes_mismatch/);
          assert.equal(failures.length, 1, 'reported once');
        } else {
          // The folder store's channel read carries no digest: the follower keeps the name it verified until the name
          // changes; the store itself no longer answers the corrupt file (a fresh replica refuses it, see above).
          assert.equal(follower.state().degraded, null);
        }
      } finally {
        await follower.stop();
      }
    });
  });
}

describe('PostgreSQL release store schema', { skip: pgSkip ?? false }, () => {
  test('any number of processes may open the same schema at once (migrations under an advisory lock)', async () => {
    const schema = uniqueSchema('rel_mig');
    const stores = Array.from({ length: 4 }, () => new PostgresReleaseStore({ connectionString: TEST_PG_URL, schema }));
    try {
      await Promise.all(stores.map((s) => s.open()));
      const version = await withPgClient((c: pg.Client) =>
        c.query<{ version: number }>(`SELECT version FROM "${schema}".release_store_version`),
      );
      assert.deepEqual(version.rows, [{ version: 1 }]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await dropSchema(schema);
    }
  });
});
