import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { sha256Hex } from '../../../src/core/index.js';
import { packageRoot } from '../../../src/package/index.js';
import { releaseSkillPackages, renderHostAsset, skillUri, skillUriRelease } from '../../../src/guided/index.js';
import { verifyReleaseFile } from '../../../src/registry/index.js';

const ACTIVE = readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim();
const verified = verifyReleaseFile(readFileSync(join(packageRoot(), 'releases', 'dist', `${ACTIVE}.json`)));
if (!verified.ok) throw new Error(verified.reason);
const release = verified.release;

describe('skill packages of a release', () => {
  test('every skill asset of the packaged release is one package with its SKILL.md and SHA-256 manifest', () => {
    const skills = release.assets.filter((a) => a.kind === 'skill');
    const packages = releaseSkillPackages(release);
    assert.equal(packages.length, skills.length);
    assert.ok(packages.length > 0);
    for (const pkg of packages) {
      const asset = skills.find((a) => a.id === pkg.name);
      assert.ok(asset);
      assert.equal(pkg.uri, `skill://rimthan/${release.release}/${asset.version}/${asset.id}/SKILL.md`);
      assert.equal(pkg.files.length, 1);
      const file = pkg.files[0]!;
      assert.equal(file.uri, pkg.uri);
      assert.ok(file.text.startsWith(`---\nname: ${asset.id}\ndescription: `), 'SKILL.md begins with its frontmatter');
      assert.equal(file.sha256, sha256Hex(Buffer.from(file.text, 'utf8')));
      assert.equal(file.size, Buffer.byteLength(file.text, 'utf8'));
      // The same bytes project-local delivery writes for the hosts that read SKILL.md.
      assert.equal(file.text, renderHostAsset('claude-code', 'skill', asset));
      assert.equal(file.text, renderHostAsset('codex', 'skill', asset));
      // The release's own digest of the asset: what a dynamic-context delivery attests.
      assert.deepEqual(pkg.asset, {
        release: release.release,
        kind: 'skill',
        id: asset.id,
        version: asset.version,
        sha256: asset.sha256,
      });
      // The frontmatter object is exactly what the SKILL.md's YAML frontmatter parses to.
      const yaml = /^---\n([\s\S]*?)---\n/.exec(file.text)?.[1];
      assert.ok(yaml !== undefined);
      assert.deepEqual(parse(yaml), pkg.frontmatter);
      assert.deepEqual(pkg.frontmatter, { name: asset.id, description: asset.description });
      assert.equal(asset.sha256, sha256Hex(asset.content));
    }
  });

  test('a description is limited in code points, as the registry counts it: 600 emoji fit, 1025 letters do not', () => {
    const skill = release.assets.find((a) => a.kind === 'skill');
    assert.ok(skill);
    const withDescription = (description: string) => ({
      ...release,
      assets: [{ ...skill, description }],
    });
    const emoji = '\u{1F600}'.repeat(600); // 1,200 UTF-16 units, 600 code points
    const [pkg] = releaseSkillPackages(withDescription(emoji));
    assert.equal(pkg?.description, emoji);
    assert.equal(parse(pkg?.files[0]?.text.split('---\n')[1] ?? '').description, emoji);
    assert.equal(releaseSkillPackages(withDescription('a'.repeat(1025))).length, 0);
  });

  test('packages are deterministic and frozen', () => {
    const a = releaseSkillPackages(release);
    const b = releaseSkillPackages(release);
    assert.deepEqual(a, b);
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a[0]) && Object.isFrozen(a[0]?.files));
  });

  test('a skill URI reads back to its release name; anything else does not', () => {
    const uri = skillUri('research-2026.11.2', { id: 'evidence-grading', version: '1.0.0' });
    assert.equal(skillUriRelease(uri), 'research-2026.11.2');
    for (const other of [
      'skill://rimthan/research-2026.11.2/1.0.0/SKILL.md', // a segment short
      'skill://rimthan/research-2026.11.2/1.0.0/evidence-grading/x/SKILL.md', // a segment too many
      'skill://rimthan/research-2026.11.2/1.0.0/evidence-grading/README.md',
      'skill://other/research-2026.11.2/1.0.0/evidence-grading/SKILL.md',
      'skill://rimthan/%E0%A4%A/1.0.0/evidence-grading/SKILL.md', // a broken escape
      'skill://rimthan/a%2Db/1.0.0/evidence-grading/SKILL.md', // not the canonical encoding of "a-b"
      'skill://rimthan//1.0.0/evidence-grading/SKILL.md',
    ]) {
      assert.equal(skillUriRelease(other), undefined, other);
    }
  });
});
