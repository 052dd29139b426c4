/**
 * Development builds (`rimthan serve --source`): each build of a source is its own release `<release>-dev.<digest8>`,
 * digest8 being the start of the manifest digest the source builds to under its own name: the same source always gets
 * the same name, any change a new one, and a release name too long to carry the suffix is a problem at its line.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import { buildDevRelease, buildRelease } from '../../src/registry/index.js';

const SOURCE = join(packageRoot(), 'releases', 'src', 'research-decision');

describe('development builds', () => {
  const root = mkdtempSync(join(tmpdir(), 'rimthan-dev-build-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  test('are named <release>-dev.<first 8 hex digits of the manifest digest under the source name>', () => {
    const plain = buildRelease(SOURCE);
    const dev = buildDevRelease(SOURCE);
    assert.ok(plain.ok && dev.ok);
    assert.equal(dev.sourceRelease, plain.file.manifest.release);
    assert.equal(
      dev.file.manifest.release,
      `${plain.file.manifest.release}-dev.${plain.file.manifest_sha256.slice(0, 8)}`,
    );
    assert.deepEqual(dev.file.workflows, plain.file.workflows, 'the content is the source, only the name differs');
    const again = buildDevRelease(SOURCE);
    assert.ok(again.ok);
    assert.equal(again.file.manifest_sha256, dev.file.manifest_sha256, 'the same source, the same build');
  });

  test('a change to any entry is a new name', () => {
    const dir = join(root, 'changed');
    cpSync(SOURCE, dir, { recursive: true });
    const before = buildDevRelease(dir);
    const brief = join(dir, 'assets', 'validator-brief', 'citation-check@1.0.0.md');
    writeFileSync(brief, `${readFileSync(brief, 'utf8')}\nOne more rule.\n`);
    const after = buildDevRelease(dir);
    assert.ok(before.ok && after.ok);
    assert.notEqual(after.file.manifest.release, before.file.manifest.release);
  });

  test('a release name too long for the suffix is a problem at the release line of registry.yaml', () => {
    const dir = join(root, 'long');
    cpSync(SOURCE, dir, { recursive: true });
    const file = join(dir, 'registry.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^release: .*$/m, `release: ${'r'.repeat(120)}`));
    const line = text.split('\n').findIndex((l) => l.startsWith('release: ')) + 1;
    const built = buildDevRelease(dir);
    assert.equal(built.ok, false);
    assert.ok(!built.ok);
    assert.deepEqual(
      built.problems.map((p) => `${p.file}:${p.line}: ${p.code}`),
      [`registry.yaml:${line}: invalid_release_name`],
    );
  });
});
