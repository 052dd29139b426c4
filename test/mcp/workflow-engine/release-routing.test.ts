/**
 * Release-pinned resume and the active channel (spec: checkpoints-data-perimeter.md "Release-pinned resume",
 * guided-protocol.md "Explicit migration").
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import {
  activateCorruptRelease,
  callTool,
  connect,
  NEW_RELEASE,
  OLD_RELEASE,
  tempReleaseStore,
  workflowProfile,
} from '../support/connect.js';
import { confirmed, Participant } from '../support/participant.js';

describe('release routing', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup(active: string) {
    const releases = tempReleaseStore(active);
    const conn = await connect(workflowProfile(releases.store));
    cleanups.push(
      () => releases.cleanup(),
      () => conn.close(),
    );
    const participant = new Participant((name, args) => callTool(conn.client, name, args));
    return { releases, client: conn.client, participant };
  }

  test('a checkpoint pinned to an older release keeps running there after a newer release is activated', async () => {
    const { releases, client, participant: p } = await setup(OLD_RELEASE);
    await p.start();
    assert.equal(p.checkpoint?.['registry_release'], OLD_RELEASE);
    assert.deepEqual(p.checkpoint?.['workflow'], { id: 'research-decision', version: '1.1.0' });

    releases.store.activate(NEW_RELEASE);
    const setupDone = await p.passStep();
    assert.equal(setupDone['status'], 'advanced');
    assert.equal(p.checkpoint?.['registry_release'], OLD_RELEASE, 'the checkpoint stays on its pinned release');
    assert.equal(p.currentStep, 'interview');

    const fresh = new Participant((name, args) => callTool(client, name, args));
    await fresh.start();
    assert.equal(fresh.checkpoint?.['registry_release'], NEW_RELEASE, 'new starts use the active release');

    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === `rimthan://registry/${NEW_RELEASE}/summary`));
    assert.ok(!resources.some((r) => r.uri.includes(OLD_RELEASE)), 'the list shows only the active release');
    const pinned = await client.readResource({
      uri: `rimthan://registry/${OLD_RELEASE}/workflows/research-decision/1.1.0/definition`,
    });
    assert.equal((JSON.parse((pinned.contents[0] as { text: string }).text) as JsonObject)['version'], '1.1.0');
  });

  const migrationTo = (p: Participant, confirm: boolean): JsonObject => ({
    target_release: NEW_RELEASE,
    workflow_version: '1.2.0',
    host: p.host(),
    confirm,
  });

  test('with no migration target set, a migration request is refused even when a newer release is active', async () => {
    const { releases, participant: p } = await setup(OLD_RELEASE);
    await p.start();
    releases.store.activate(NEW_RELEASE);
    const refused = await p.call('rimthan.continue_workflow', {
      checkpoint: p.checkpoint as JsonObject,
      confirmed_state: p.state,
      migration: migrationTo(p, false),
    });
    assert.equal(refused.isError, true);
    assert.equal((refused.value['error'] as JsonObject)['reason'], 'migration_unavailable');
  });

  test('continue with a migration request moves a pinned checkpoint to the migration target only when confirmed', async () => {
    const { releases, participant: p } = await setup(OLD_RELEASE);
    await p.start();
    // The migration target is its own channel, verified separately; the active release stays the old one.
    await releases.store.setChannel({ channel: 'migration-target', release: NEW_RELEASE, actor: 'test' });
    const migration = (confirm: boolean): JsonObject => migrationTo(p, confirm);
    const preview = await p.ok('rimthan.continue_workflow', {
      checkpoint: p.checkpoint as JsonObject,
      confirmed_state: p.state,
      migration: migration(false),
    });
    assert.equal(preview['status'], 'blocked');
    assert.equal(((preview['migration'] as JsonObject)['target'] as JsonObject)['registry_release'], NEW_RELEASE);
    assert.equal(p.checkpoint?.['registry_release'], OLD_RELEASE);

    // Migration needs every target field re-confirmed after the checkpoint.
    const reconfirmed = confirmed(p.state['state'] as JsonObject);
    const moved = await p.ok('rimthan.continue_workflow', {
      checkpoint: p.checkpoint,
      confirmed_state: p.state,
      next_confirmed_state: reconfirmed,
      migration: migration(true),
    });
    assert.equal(moved['status'], 'active', JSON.stringify(moved['blockers']));
    const checkpoint = moved['checkpoint'] as JsonObject;
    assert.equal(checkpoint['registry_release'], NEW_RELEASE);
    assert.equal(checkpoint['current_step'], 'setup-workspace');
    assert.deepEqual(checkpoint['workflow'], { id: 'research-decision', version: '1.2.0' });
  });

  test('a checkpoint naming a release the store does not hold fails closed', async () => {
    const { participant: p } = await setup(NEW_RELEASE);
    await p.start();
    const forged = { ...(p.checkpoint as JsonObject), registry_release: 'research-2099.1.1' };
    const outcome = await p.call('rimthan.continue_workflow', { checkpoint: forged, confirmed_state: p.state });
    assert.equal(outcome.isError, true);
    assert.equal((outcome.value['error'] as JsonObject)['code'], 'workflow_checkpoint_error');
  });

  test('a corrupt active refresh keeps serving the last verified release', async () => {
    const { releases, client, participant: p } = await setup(NEW_RELEASE);
    await client.listTools();
    activateCorruptRelease(releases.dir);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 4);
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === `rimthan://registry/${NEW_RELEASE}/summary`));
    await p.start();
    assert.equal(p.checkpoint?.['registry_release'], NEW_RELEASE);
    assert.equal((await p.passStep())['status'], 'advanced');
  });
});
