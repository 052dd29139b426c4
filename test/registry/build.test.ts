import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { digestJson, sha256Hex } from '../../src/core/index.js';
import { buildRelease, checkSource, serializeReleaseFile, verifyReleaseFile } from '../../src/registry/index.js';
import type { ReleaseFile } from '../../src/registry/index.js';
import { MINIMAL, withMinimalCopy } from './helpers.js';

function built(dir: string): ReleaseFile {
  const result = buildRelease(dir);
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.problems, null, 2));
  return result.file;
}

describe('registry build', () => {
  test('the same source builds to a byte-identical release file twice', () => {
    const first = serializeReleaseFile(built(MINIMAL));
    const second = withMinimalCopy((dir) => serializeReleaseFile(built(dir)));
    assert.deepEqual(Buffer.from(second), Buffer.from(first));
    assert.equal(Buffer.from(first).at(-1), 0x0a, 'the file ends with a newline');
  });

  test('a built release verifies and carries every entry of the source', () => {
    const file = built(MINIMAL);
    const verified = verifyReleaseFile(serializeReleaseFile(file));
    assert.ok(verified.ok, verified.ok ? '' : verified.reason);
    const release = verified.release;
    assert.equal(release.registry_id, 'test-registry');
    assert.equal(release.release, 'test-2026.1.0');
    assert.deepEqual(
      release.workflows.map((w) => `${w.id}@${w.version}`),
      ['mini@1.0.0'],
    );
    assert.equal(release.assets.length, 8);
    assert.equal(release.validators.length, 1);
    assert.equal(release.schemas.length, 2);
    assert.equal(release.workflows[0]?.start_step, 'setup-workspace', 'an omitted start_step means setup-workspace');
    assert.deepEqual(release.workflows[0]?.steps[0]?.outputs, [], 'omitted step lists are empty');
  });

  test('the manifest lists every entry once, sorted, with the digest of its canonical JSON', () => {
    const file = built(MINIMAL);
    const entries = file.manifest.entries;
    assert.equal(entries.length, 1 + 8 + 1 + 2);
    const keys = entries.map((e) => `${e.type}:${e.key}@${e.version}`);
    assert.deepEqual(keys, [...keys].sort());
    for (const asset of file.assets) {
      assert.equal(asset.sha256, sha256Hex(asset.content), 'asset sha256 is over the UTF-8 content');
      const line = entries.find((e) => e.type === 'asset' && e.key === `${asset.kind}/${asset.id}`);
      assert.equal(line?.sha256, digestJson(asset));
    }
    for (const schema of file.schemas) {
      assert.equal(schema.sha256, digestJson(schema.schema));
      assert.equal(entries.find((e) => e.type === 'schema' && e.key === schema.id)?.sha256, digestJson(schema));
    }
    const workflow = file.workflows[0];
    assert.equal(entries.find((e) => e.type === 'workflow')?.sha256, digestJson(workflow));
    assert.equal(file.manifest_sha256, digestJson(file.manifest));
  });

  test('Markdown asset content is the body after the frontmatter, byte for byte', () => {
    const file = built(MINIMAL);
    const subagent = file.assets.find((a) => a.kind === 'subagent');
    assert.equal(subagent?.content, '\nCheck the artifacts against the brief and return one JSON report.\n');
    assert.deepEqual(subagent?.tools, ['Read', 'Grep']);
  });

  test('a legacy host adapter without a typed contract loads (the guided engine refuses to start with it)', () => {
    const file = built(MINIMAL);
    const legacy = file.assets.find((a) => a.id === 'legacy-host');
    assert.equal(legacy?.version, '1.0.0');
    assert.deepEqual(legacy?.adapter, { compatible_harnesses: ['codex'] });
    const typed = file.assets.find((a) => a.id === 'claude-host');
    assert.equal(typed?.adapter?.adapter_contract?.project_local_paths.skill, '.claude/skills/{asset_id}/SKILL.md');
  });

  test('checkSource returns the release a valid source compiles to', () => {
    const checked = checkSource(MINIMAL);
    assert.ok(checked.ok);
    assert.deepEqual(checked.problems, []);
    assert.equal(checked.release.manifest_sha256, built(MINIMAL).manifest_sha256);
  });
});
