/**
 * The packaged migration target (`releases/MIGRATION_TARGET`) is derived from the packaged releases, so it cannot go
 * stale: it names the one packaged release that holds a newer version of every workflow of every other packaged
 * release (the newest one a checkpoint of any of them can migrate to). A checkpoint of each older packaged release
 * then migrates to it through the engine, called as the MCP layer calls it: preview first, then a confirmed restart.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { createReleaseScope } from '../../../src/guided/index.js';
import type { ReleaseScope } from '../../../src/guided/index.js';
import { packageRoot } from '../../../src/package/index.js';
import { packagedReleaseStore } from '../../../src/registry/index.js';
import type { Release } from '../../../src/registry/model/release.js';
import { compareVersions } from '../../../src/registry/model/index.js';
import { Session, confirmed } from '../fixtures/harness.js';

const store = packagedReleaseStore();
const releases: Release[] = store.list().map((name) => {
  const release = store.load(name);
  assert.ok(release, `packaged release ${name} verifies`);
  return release;
});

/** The newest version of workflow `id` in `release`, or undefined. */
function newest(release: Release, id: string): string | undefined {
  return release.workflows
    .filter((w) => w.id === id)
    .map((w) => w.version)
    .sort(compareVersions)
    .at(-1);
}

/** True when every workflow of `source` has a strictly newer version in `target` (a checkpoint of it can migrate). */
function migratesTo(source: Release, target: Release): boolean {
  return source.workflows.every((w) => {
    const there = newest(target, w.id);
    return there !== undefined && compareVersions(there, w.version) > 0;
  });
}

/** The packaged releases every other packaged release can migrate to. */
function derivedTargets(): string[] {
  return releases
    .filter((target) => releases.every((source) => source === target || migratesTo(source, target)))
    .map((r) => r.release);
}

/** A host declaration binding the adapter `scope`'s workflow pins for claude-code, with every capability it needs. */
function host(scope: ReleaseScope): JsonObject {
  const workflow = scope.workflowVersions('research-decision').at(-1)?.workflow;
  assert.ok(workflow);
  return {
    harness: 'claude-code',
    adapter: { ...workflow.host_adapters['claude-code'] },
    host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports', 'project-local-assets'],
    validator_capabilities: ['workspace.read', 'web.read'],
    repository_policy: { conflict: false },
  };
}

describe('the packaged migration target', () => {
  test('names the one packaged release every other packaged release migrates to', () => {
    const named = readFileSync(join(packageRoot(), 'releases', 'MIGRATION_TARGET'), 'utf8').trim();
    assert.deepEqual(derivedTargets(), [named]);
    const read = store.readMigrationTarget();
    assert.ok(read.ok && read.release === named, 'the packaged store reads the same target');
  });

  const targetName = derivedTargets()[0];
  for (const source of releases.filter((r) => r.release !== targetName)) {
    test(`a checkpoint of ${source.release} migrates to the packaged target`, () => {
      const read = store.readMigrationTarget();
      assert.ok(read.ok && read.release !== null);
      const targetRelease = store.load(read.release);
      assert.ok(targetRelease, 'the packaged migration target loads and verifies');
      const target = createReleaseScope(targetRelease);
      const session = new Session(createReleaseScope(source));
      const state = confirmed(
        { objective: 'Pick a queue for billing', decision_question: 'Which message queue should billing adopt?' },
        session.clock.iso(),
      );
      const started = session.start({
        workflow: 'research-decision',
        confirmed_state: state,
        host: host(session.scope),
      });
      assert.equal(started['status'], 'active', JSON.stringify(started['blockers']));
      const checkpoint = started['checkpoint'] as JsonObject;
      assert.equal(checkpoint['registry_release'], source.release);

      session.clock.advance(60_000);
      const version = newest(targetRelease, 'research-decision');
      assert.ok(version !== undefined);
      const migrate = (confirm: boolean): JsonObject =>
        session.continue(
          {
            checkpoint,
            confirmed_state: state,
            next_confirmed_state: confirmed(state['state'] as JsonObject, session.clock.iso()),
            migration: { target_release: read.release ?? '', workflow_version: version, host: host(target), confirm },
          },
          target,
        );
      const preview = migrate(false);
      assert.equal(preview['status'], 'blocked', JSON.stringify(preview));
      assert.deepEqual(
        (preview['blockers'] as JsonObject[]).map((b) => b['code']),
        ['migration_confirmation_required'],
      );
      const done = migrate(true);
      assert.equal(done['status'], 'active', JSON.stringify(done['blockers']));
      const restarted = done['checkpoint'] as JsonObject;
      assert.equal(restarted['registry_release'], read.release);
      assert.deepEqual(restarted['workflow'], { id: 'research-decision', version });
      assert.equal(restarted['current_step'], 'setup-workspace');
    });
  }
});
