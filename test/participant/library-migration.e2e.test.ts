/**
 * A participant whose research session is pinned to the last research-only release (research-2026.11.2) migrates it to
 * the packaged library (library-2026.12.1), the packaged migration target: through a real `rimthan serve` over stdio
 * and the shipped participant library, the checkpoint at decision-record (plan, evidence and validator receipts held)
 * is previewed, confirmed, restarted at setup-workspace on research-decision@1.4.0, and carries on there with the
 * library's shared host adapter, validator subagent and setup instruction.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { JsonObject } from '../../src/core/index.js';
import { GuidedToolName } from '../../src/guided/index.js';
import { packageRoot } from '../../src/package/index.js';
import {
  confirmState,
  connectServer,
  ParticipantSession,
  readSession,
  writeSession,
} from '../../src/participant/index.js';
import type { SessionState } from '../../src/participant/index.js';
import { RESEARCH_RELEASE, tempReleaseStore } from '../mcp/support/connect.js';
import { driveResearch, HOST, stdioServe, workspaceAt } from '../support/participant-drive.js';

const LIBRARY = readFileSync(join(packageRoot(), 'releases', 'MIGRATION_TARGET'), 'utf8').trim();

describe('migrating a research-2026.11.2 session to the packaged library', () => {
  const home = mkdtempSync(join(tmpdir(), 'rimthan-library-migration-'));
  const releases = tempReleaseStore(RESEARCH_RELEASE);
  writeFileSync(join(releases.dir, 'MIGRATION_TARGET'), `${LIBRARY}\n`);
  after(() => {
    releases.cleanup();
    rmSync(home, { recursive: true, force: true });
  });

  test('a checkpoint at decision-record migrates to research-decision@1.4.0 and continues in the library', async () => {
    assert.equal(LIBRARY, 'library-2026.12.1', 'the packaged migration target is the library release');
    const server = await connectServer(stdioServe(home, undefined, ['--releases', releases.dir]));
    try {
      const workspace = workspaceAt(join(home, 'repository'));
      const driven = await driveResearch(new ParticipantSession(server, workspace), 'decision-record');
      const pinned = driven.session.checkpoint;
      assert.equal(pinned['registry_release'], RESEARCH_RELEASE);
      assert.deepEqual(pinned['workflow'], { id: 'research-decision', version: '1.3.0' });
      assert.equal(pinned['current_step'], 'decision-record');

      const library = new ParticipantSession(server, workspace);
      let reconfirmed: JsonObject = {};
      const migrate = async (confirm: boolean): Promise<JsonObject> => {
        const current = readSession(workspace) as SessionState;
        const state = current.confirmed_state['state'] as JsonObject;
        reconfirmed = confirmState(state, new Date());
        return library.call(GuidedToolName.ContinueWorkflow, {
          checkpoint: current.checkpoint,
          confirmed_state: current.confirmed_state,
          // Migration re-confirms every field after the checkpoint: the person reads the contract again and says yes.
          next_confirmed_state: reconfirmed,
          migration: {
            target_release: LIBRARY,
            workflow_version: '1.4.0',
            host: {
              harness: HOST.harness,
              adapter: { id: 'claude-code-host', version: '2.0.0' },
              host_capabilities: [...HOST.host_capabilities],
              validator_capabilities: [...HOST.validator_capabilities],
              repository_policy: { conflict: false },
            },
            confirm,
          },
        });
      };

      const preview = await migrate(false);
      assert.equal(preview['status'], 'blocked', JSON.stringify(preview['blockers']));
      assert.deepEqual(
        (preview['blockers'] as JsonObject[]).map((b) => b['code']),
        ['migration_confirmation_required'],
      );
      const facts = preview['migration'] as JsonObject;
      assert.deepEqual(facts['target'], {
        registry_release: LIBRARY,
        workflow: { id: 'research-decision', version: '1.4.0' },
        step: 'setup-workspace',
      });
      assert.deepEqual(facts['invalidated_artifacts'], [
        'desk-findings',
        'evidence-table',
        'research-plan',
        'workspace-manifest',
      ]);
      assert.deepEqual(facts['invalidated_validators'], ['citation-check@1.0.0', 'evidence-quality@1.0.0']);
      assert.equal(readSession(workspace)?.checkpoint['registry_release'], RESEARCH_RELEASE, 'a preview moves nothing');

      const done = await migrate(true);
      assert.equal(done['status'], 'active', JSON.stringify(done['blockers']));
      const restarted = done['checkpoint'] as JsonObject;
      assert.equal(restarted['registry_release'], LIBRARY);
      assert.deepEqual(restarted['workflow'], { id: 'research-decision', version: '1.4.0' });
      assert.equal(restarted['current_step'], 'setup-workspace');
      assert.deepEqual(restarted['artifacts'], {}, 'every receipt of the old release is gone');
      writeSession(workspace, { checkpoint: restarted, confirmed_state: reconfirmed });

      // The restarted setup step is the library's: shared adapter 2.0.0, workflow-validator, prepare-workspace.
      const step = done['step'] as JsonObject;
      assert.equal((step['host_adapter'] as JsonObject)['version'], '2.0.0');
      assert.equal((step['instruction'] as JsonObject)['id'], 'prepare-workspace');
      assert.ok((step['host_assets'] as JsonObject[]).some((a) => a['id'] === 'workflow-validator'));

      // The participant carries on in the library: assets delivered and attested, setup accepted.
      const resumed = new ParticipantSession(server, workspace);
      await resumed.writeAssets();
      const prepared = await resumed.prepare();
      assert.equal(prepared.result['status'], 'ready_for_semantic_validation', JSON.stringify(prepared.result));
      const setup = await resumed.submit([]);
      assert.equal(setup['status'], 'advanced', JSON.stringify(setup).slice(0, 400));
      const after = readSession(workspace)?.checkpoint;
      assert.equal(after?.['registry_release'], LIBRARY);
      assert.equal(after?.['current_step'], 'interview');
    } finally {
      await server.close();
    }
  });
});
