/** The release diff of the two packaged releases, and the migration facts it takes from the guided engine. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ScopeCache, releaseDiff } from '../../../src/console/releases/release-diff.js';
import { packagedReleaseStore } from '../../../src/registry/index.js';
import type { Release } from '../../../src/registry/index.js';

const store = packagedReleaseStore();
function load(name: string): Release {
  const read = store.read(name);
  assert.ok(read.ok, `${name} loads`);
  return read.release;
}
const october = load('research-2026.10.1');
const november = load('research-2026.11.1');

describe('release diff', () => {
  test('names what was added and changed between the packaged releases', () => {
    const diff = releaseDiff(october, november, new ScopeCache());
    assert.deepEqual(
      diff.entries.added.map((e) => `${e.type}:${e.key}`),
      [
        'asset:instruction/prototype-spike',
        'asset:validator-brief/spike-reproducibility',
        'schema:spike-results',
        'validator:spike-reproducibility',
      ],
    );
    assert.deepEqual(diff.entries.removed, []);
    assert.deepEqual(
      diff.entries.changed.map((e) => `${e.key} ${e.from.join()}→${e.to.join()}`),
      ['instruction/select-route 0.9.0→1.0.0', 'research-contract 0.9.0→1.0.0', 'research-decision 1.1.0→1.2.0'],
    );
    const workflow = diff.workflows[0];
    assert.deepEqual(workflow?.steps.added, ['prototype-spike']);
    assert.deepEqual(workflow?.steps.changed, [
      { id: 'select-route', aspects: ['instruction', 'transitions', 'question'] },
    ]);
  });

  test('a migration restarts at setup and invalidates every receipt a checkpoint of the old version can hold', () => {
    const [migration] = releaseDiff(october, november, new ScopeCache()).migrations;
    assert.equal(migration?.refusal, null);
    assert.equal(migration?.restart_step, 'setup-workspace');
    const declared = october.workflows[0]?.steps.flatMap((s) => s.outputs.map((o) => o.artifact_id)).sort();
    assert.deepEqual(migration?.invalidated_artifacts, declared);
    assert.deepEqual(migration?.invalidated_validators, [
      'citation-check@1.0.0',
      'decision-coherence@1.0.0',
      'evidence-quality@1.0.0',
    ]);
    assert.deepEqual(migration?.reconfirm_schema, { id: 'research-contract', version: '1.0.0' });
  });

  test('backwards or within one release, the engine refuses the migration and the diff says why', () => {
    const scopes = new ScopeCache();
    assert.equal(releaseDiff(november, october, scopes).migrations[0]?.refusal?.reason, 'migration_not_newer');
    assert.equal(releaseDiff(november, november, scopes).migrations[0]?.refusal?.reason, 'migration_not_newer');
    const same = releaseDiff(november, november, scopes);
    assert.deepEqual([same.entries.added, same.entries.removed, same.entries.changed], [[], [], []]);
  });
});
