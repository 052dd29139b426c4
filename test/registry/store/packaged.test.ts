/** The packaged release sources validate cleanly, rebuild to the shipped files, and every shipped file verifies. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';
import {
  ActiveReleaseChannel,
  buildRelease,
  checkSource,
  formatProblem,
  packagedReleaseStore,
  serializeReleaseFile,
  verifyReleaseFile,
} from '../../../src/registry/index.js';

const RELEASES = join(packageRoot(), 'releases');
const SOURCES = join(RELEASES, 'src');
const DIST = join(RELEASES, 'dist');

const sources = existsSync(SOURCES)
  ? readdirSync(SOURCES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const shipped = existsSync(DIST) ? readdirSync(DIST).filter((n) => n.endsWith('.json')) : [];

describe('packaged releases', () => {
  test('the packaged research-decision source validates with zero problems', () => {
    const result = checkSource(join(SOURCES, 'research-decision'));
    assert.deepEqual(result.problems.map(formatProblem), []);
    assert.ok(result.ok);
    assert.ok(result.release.workflows.some((w) => w.id === 'research-decision'));
  });

  for (const name of sources) {
    test(`source ${name} validates and rebuilds byte-identically to its shipped file`, () => {
      const result = buildRelease(join(SOURCES, name));
      assert.deepEqual(result.ok ? [] : result.problems.map(formatProblem), []);
      assert.ok(result.ok);
      const shippedFile = join(DIST, `${result.file.manifest.release}.json`);
      if (existsSync(shippedFile)) {
        assert.ok(
          Buffer.from(serializeReleaseFile(result.file)).equals(readFileSync(shippedFile)),
          'rebuild differs from dist',
        );
      }
    });
  }

  for (const name of shipped) {
    test(`shipped release ${name} verifies under its own name`, () => {
      const result = verifyReleaseFile(readFileSync(join(DIST, name)));
      assert.ok(result.ok, result.ok ? '' : result.reason);
      assert.equal(`${result.release.release}.json`, name);
    });
  }

  test(
    'the packaged active release opens a channel',
    { skip: !existsSync(join(RELEASES, 'ACTIVE')) && 'releases/ACTIVE not shipped yet' },
    () => {
      const channel = new ActiveReleaseChannel(packagedReleaseStore());
      assert.ok(shipped.includes(`${channel.current().release}.json`));
    },
  );
});
