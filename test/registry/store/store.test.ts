/** Folder release store and active channel: immutable publishes, verified loads, fail-soft refresh. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';
import {
  ActiveReleaseChannel,
  FolderReleaseStore,
  buildRelease,
  packagedReleaseStore,
  serializeReleaseFile,
} from '../../../src/registry/index.js';
import type { ReleaseFile } from '../../../src/registry/index.js';
import { edit, tempDir, withMinimalCopy } from '../helpers.js';

/** The minimal release under another release name (and optionally another title). */
function releaseNamed(name: string, title = 'Minimal workflow'): ReleaseFile {
  return withMinimalCopy((dir) => {
    edit(dir, 'registry.yaml', 'release: test-2026.1.0', `release: ${name}`);
    edit(dir, 'workflows/mini@1.0.0.yaml', 'title: Minimal workflow', `title: ${title}`);
    const result = buildRelease(dir);
    assert.ok(result.ok);
    return result.file;
  });
}

function withStore(fn: (store: FolderReleaseStore, dir: string) => void): void {
  const { dir, cleanup } = tempDir('rimthan-registry-store-');
  try {
    fn(new FolderReleaseStore(dir), dir);
  } finally {
    cleanup();
  }
}

const first = releaseNamed('test-1.0.0');
const second = releaseNamed('test-2.0.0');

describe('FolderReleaseStore', () => {
  test('a published release is listed and loads verified', () => {
    withStore((store, dir) => {
      assert.deepEqual(store.publish(first), { release: 'test-1.0.0', created: true });
      assert.deepEqual(store.list(), ['test-1.0.0']);
      assert.deepEqual(readFileSync(join(dir, 'test-1.0.0.json')), Buffer.from(serializeReleaseFile(first)));
      const loaded = store.load('test-1.0.0');
      assert.equal(loaded?.manifest_sha256, first.manifest_sha256);
    });
  });

  test('publishing is immutable: same bytes are a no-op, different content under the same name is refused', () => {
    withStore((store, dir) => {
      store.publish(first);
      assert.deepEqual(store.publish(first), { release: 'test-1.0.0', created: false });
      const changed = releaseNamed('test-1.0.0', 'Changed title');
      assert.throws(() => store.publish(changed), { code: 'release_immutable' });
      assert.deepEqual(readFileSync(join(dir, 'test-1.0.0.json')), Buffer.from(serializeReleaseFile(first)));
    });
  });

  test('a release file that does not verify is not published', () => {
    withStore((store) => {
      const broken = { ...first, manifest_sha256: '0'.repeat(64) };
      assert.throws(() => store.publish(broken), { code: 'release_invalid' });
      assert.deepEqual(store.list(), []);
    });
  });

  test('unsafe release names are refused before touching the filesystem', () => {
    withStore((store) => {
      for (const name of ['../etc/passwd', 'a/b', '', '.hidden', 'Upper', 'x'.repeat(129), 'a..b']) {
        assert.equal(store.load(name), undefined);
        assert.deepEqual(store.read(name), { ok: false, reason: 'invalid_release_name' });
      }
    });
  });

  test('a release file stored under another name does not load', () => {
    withStore((store, dir) => {
      writeFileSync(join(dir, 'test-9.0.0.json'), serializeReleaseFile(first));
      assert.deepEqual(store.read('test-9.0.0'), { ok: false, reason: 'release_name_mismatch' });
    });
  });

  test('activating a release that does not load is refused', () => {
    withStore((store, dir) => {
      writeFileSync(join(dir, 'bad-1.json'), '{"not":"a release"}');
      assert.throws(() => store.activate('bad-1'), { code: 'release_unavailable' });
      assert.throws(() => store.activate('missing-1'), { code: 'release_unavailable' });
    });
  });

  test('the packaged store reads releases/dist with the active pointer in releases/ACTIVE', () => {
    const store = packagedReleaseStore();
    assert.equal(store.dir, join(packageRoot(), 'releases', 'dist'));
    assert.equal(store.activeFile, join(packageRoot(), 'releases', 'ACTIVE'));
  });
});

describe('ActiveReleaseChannel', () => {
  test('serves the active release and switches on refresh after activation', () => {
    withStore((store) => {
      store.publish(first);
      store.publish(second);
      store.activate('test-1.0.0');
      const channel = new ActiveReleaseChannel(store);
      assert.equal(channel.current().release, 'test-1.0.0');
      assert.deepEqual(channel.refresh(), { ok: true, changed: false });
      store.activate('test-2.0.0');
      assert.deepEqual(channel.refresh(), { ok: true, changed: true });
      assert.equal(channel.current().release, 'test-2.0.0');
    });
  });

  test('a garbage ACTIVE pointer keeps the last verified snapshot', () => {
    withStore((store, dir) => {
      store.publish(first);
      store.activate('test-1.0.0');
      const channel = new ActiveReleaseChannel(store);
      const before = channel.current();
      writeFileSync(join(dir, 'ACTIVE'), '\u0000\u00ff garbage ../../etc');
      const refreshed = channel.refresh();
      assert.equal(refreshed.ok, false);
      assert.equal(channel.current(), before);
    });
  });

  test('activating a corrupt release keeps the last verified snapshot', () => {
    withStore((store, dir) => {
      store.publish(first);
      store.activate('test-1.0.0');
      const channel = new ActiveReleaseChannel(store);
      const before = channel.current();
      const text = new TextDecoder()
        .decode(serializeReleaseFile(second))
        .replace('Keep notes short', 'Keep notes SHORT');
      writeFileSync(join(dir, 'test-2.0.0.json'), text);
      writeFileSync(join(dir, 'ACTIVE'), 'test-2.0.0\n');
      assert.deepEqual(channel.refresh(), { ok: false, reason: 'digest_mismatch' });
      assert.equal(channel.current(), before);
      assert.equal(channel.current().release, 'test-1.0.0');
    });
  });

  test('a store without a verified active release cannot open a channel', () => {
    withStore((store) => {
      assert.throws(() => new ActiveReleaseChannel(store), { code: 'no_active_release' });
    });
  });
});
