/**
 * The console shows the packaged library: the active release's page lists every workflow of the library with its
 * title, description and step count, from the same packaged store a server uses.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { folderConsoleStore } from '../../../src/console/releases/release-store.js';
import { releaseAnswer } from '../../../src/console/releases/release-views.js';
import { packagedReleaseStore } from '../../../src/registry/index.js';

test('the active packaged release page lists the library workflows', async () => {
  const store = folderConsoleStore(packagedReleaseStore());
  const channels = await store.channels();
  assert.equal(channels.active, 'library-2026.12.1');
  assert.equal(channels.migration_target, 'library-2026.12.1');
  const read = await store.read(channels.active ?? '');
  assert.ok(read.ok, read.ok ? '' : read.reason);
  const answer = releaseAnswer(read.release, channels);
  const shown = new Map(answer.workflows.map((w) => [w.id, w]));
  for (const [id, title] of [
    ['research-decision', 'Research to decision'],
    ['fix-bug', 'Fix a bug'],
    ['deliver-feature', 'Deliver a feature'],
    ['review-change', 'Review a change'],
    ['upgrade-dependency', 'Upgrade a dependency'],
    ['refactor-safely', 'Refactor behind a safety net'],
    ['test-gap-analysis', "Find the gaps in a component's tests"],
  ] as const) {
    const workflow = shown.get(id);
    assert.ok(workflow !== undefined, `the console lists ${id}`);
    assert.equal(workflow.title, title);
    assert.ok(workflow.steps >= 3, `${id} shows its steps`);
    assert.ok(workflow.description.length > 100, `${id} shows what it is for`);
  }
  assert.ok(answer.channels.includes('active'), 'the page marks the release active');
});
