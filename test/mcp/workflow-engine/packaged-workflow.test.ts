/**
 * The active packaged workflow as a participant meets it, through the MCP tools: every named host builds an accepted
 * setup attestation from the served content alone (the host declaration from the served workflow definition, the
 * attestation and manifest from the served step payload, which the served setup instruction tells it to use); and a
 * host without `web.read` completes the prototype-spike route, being stopped only where desk research is chosen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import type { Harness } from '../../../src/registry/model/release.js';
import { artifactsFor, setupAttestation, workspaceManifest } from '../../support/faithful-harness.js';
import { RESEARCH_RELEASE, callTool, connect, tempReleaseStore, workflowProfile } from '../support/connect.js';
import { confirmed, OBJECTIVE, Participant } from '../support/participant.js';
import { toRouteQuestion } from '../support/research-run.js';

const HARNESSES: Harness[] = ['codex', 'claude-code', 'cowork', 'buzz'];
const HOST_CAPABILITIES = ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'];

describe('the packaged workflow as a participant meets it', () => {
  const releases = tempReleaseStore(RESEARCH_RELEASE);
  let conn: Awaited<ReturnType<typeof connect>>;
  before(async () => {
    conn = await connect(workflowProfile(releases.store));
  });
  after(async () => {
    await conn.close();
    releases.cleanup();
  });

  async function served(uri: string): Promise<JsonObject> {
    const read = await conn.client.readResource({ uri });
    return JSON.parse((read.contents[0] as { text: string }).text) as JsonObject;
  }

  test('every host builds an accepted setup attestation from the served step payload alone', async () => {
    const summary = await served(`rimthan://registry/${RESEARCH_RELEASE}/summary`);
    assert.ok(JSON.stringify(summary).includes('research-decision'));
    const definition = await served(
      `rimthan://registry/${RESEARCH_RELEASE}/workflows/research-decision/1.3.0/definition`,
    );
    const pins = definition['host_adapters'] as Record<string, JsonObject>;
    for (const harness of HARNESSES) {
      for (const local of [true, false]) {
        const what = `${harness}${local ? ' with project-local-assets' : ''}`;
        const state = confirmed({ objective: OBJECTIVE });
        const started = await callTool(conn.client, 'rimthan.start_workflow', {
          workflow: 'research',
          confirmed_state: state,
          host: {
            harness,
            adapter: { id: pins[harness]?.['id'] as string, version: pins[harness]?.['version'] as string },
            host_capabilities: local ? [...HOST_CAPABILITIES, 'project-local-assets'] : HOST_CAPABILITIES,
            validator_capabilities: ['workspace.read'],
            repository_policy: { conflict: false },
          },
        });
        assert.equal(started.value['status'], 'active', `${what}: ${JSON.stringify(started.value['blockers'])}`);
        const step = started.value['step'] as JsonObject;
        const checkpoint = started.value['checkpoint'] as JsonObject;

        // The served instruction names every entry the attestation needs: each host asset and the adapter's own.
        const instruction = (step['instruction'] as JsonObject)['content'] as string;
        for (const asset of step['host_assets'] as JsonObject[]) {
          const id = asset['id'] as string;
          assert.ok(instruction.includes(`\`${id}\``), `${what}: the instruction names ${id}`);
        }
        assert.match(instruction, /"kind": "host-adapter"/, `${what}: the instruction shows the host-adapter entry`);
        assert.match(instruction, /`host_adapter`/);

        // Built from the payload only (see support/faithful-harness.ts: it reads host_assets, host_adapter, the
        // checkpoint's host binding and outputs, nothing else).
        const attestation = setupAttestation(step, checkpoint, local);
        const kinds = (attestation['assets'] as JsonObject[]).map((a) => a['kind']);
        assert.deepEqual(kinds, ['prompt', 'skill', 'subagent', 'host-adapter']);
        if (local && (harness === 'codex' || harness === 'claude-code')) {
          assert.ok((attestation['assets'] as JsonObject[]).some((a) => a['delivery'] === 'project-local'));
        }
        const prepared = await callTool(conn.client, 'rimthan.prepare_step_validation', {
          checkpoint,
          confirmed_state: state,
          artifacts: artifactsFor(step, { 'workspace-manifest': workspaceManifest(attestation) }),
          repository_policy: { conflict: false },
          validator_capabilities: ['workspace.read'],
          host_attestation: attestation,
        });
        assert.equal(
          prepared.value['status'],
          'ready_for_semantic_validation',
          `${what}: ${JSON.stringify(prepared.value['failures'])}`,
        );
        const submitted = await callTool(conn.client, 'rimthan.submit_step_validation', {
          checkpoint,
          confirmed_state: state,
          validation_bundle: prepared.value['validation_bundle'] as JsonObject,
          reports: [],
        });
        assert.equal(submitted.value['status'], 'advanced', what);
      }
    }
  });

  test('the Codex agent file of the read-only validator subagent carries sandbox_mode = "read-only"', async () => {
    const p = new Participant((name, args) => callTool(conn.client, name, args), {
      harness: 'codex',
      adapter: { id: 'codex-host', version: '1.2.0' },
      host_capabilities: [...HOST_CAPABILITIES, 'project-local-assets'],
    });
    const started = await p.start();
    const subagent = ((started['step'] as JsonObject)['host_assets'] as JsonObject[]).find(
      (a) => a['kind'] === 'subagent',
    );
    const file = subagent?.['project_local'] as JsonObject;
    assert.equal(file['path'], '.codex/agents/research-validator.toml');
    assert.match(file['content'] as string, /^sandbox_mode = "read-only"$/m);
  });

  test('a host without web.read completes the prototype-spike route and is stopped only where desk research is chosen', async () => {
    const p = new Participant((name, args) => callTool(conn.client, name, args), {
      validator_capabilities: ['workspace.read'],
    });
    // The start asks only for what every route needs.
    await toRouteQuestion(p);
    assert.equal(p.currentStep, 'select-route');
    assert.deepEqual((p.checkpoint?.['host'] as JsonObject)['validator_capabilities'], ['workspace.read']);

    const atQuestion = p.checkpoint;
    const desk = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'desk-research' });
    assert.equal(desk['status'], 'blocked');
    assert.deepEqual(desk['blockers'], [{ code: 'missing_validator_capability', capability: 'web.read' }]);
    assert.deepEqual(p.checkpoint, atQuestion, 'blocked: the checkpoint and the confirmed state stay as they were');
    assert.equal((p.state['state'] as JsonObject)['research_route'], undefined);

    const spike = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'prototype-spike' });
    assert.equal(spike['status'], 'active', JSON.stringify(spike['blockers']));
    assert.equal(p.currentStep, 'prototype-spike');
    const inputs = ((p.step as JsonObject)['step'] as JsonObject)['inputs'];
    assert.deepEqual(inputs, ['research-plan'], 'the spike takes the accepted research plan as its input');
    const spiked = await p.passStep();
    assert.equal(spiked['status'], 'advanced');
    assert.equal(p.currentStep, 'decision-record');

    // decision-coherence reads the plan from the earlier step's receipt, bound in the bundle.
    const prepared = await p.prepare();
    assert.equal(prepared['status'], 'ready_for_semantic_validation', JSON.stringify(prepared['failures']));
    const coherence = (prepared['validators'] as JsonObject[])[0] as JsonObject;
    assert.equal(coherence['validator_id'], 'decision-coherence');
    const planReceipt = (p.checkpoint?.['artifacts'] as JsonObject)['research-plan'];
    assert.equal((coherence['input_artifacts'] as JsonObject)['research-plan'], planReceipt);
    const done = await p.submit(prepared);
    assert.equal(done['status'], 'completed');
  });

  test('submit on the plan step asks the route question again when the confirmed route needs a missing capability', async () => {
    const p = new Participant((name, args) => callTool(conn.client, name, args), {
      validator_capabilities: ['workspace.read'],
    });
    await p.start();
    await p.passStep();
    await p.continue();
    await p.continue();
    assert.equal(p.currentStep, 'select-route');
    // Confirmed during the gated step (accepted: continue re-issues the same step with the new state).
    const confirmedDesk = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'desk-research' });
    assert.equal(confirmedDesk['status'], 'active');
    assert.equal(p.currentStep, 'select-route');
    const asked = await p.passStep();
    assert.equal(asked['status'], 'input_required');
    assert.equal((asked['question'] as JsonObject)['field'], 'research_route');
    assert.equal(p.currentStep, 'select-route');
    const blocked = await p.continue();
    assert.deepEqual(blocked['blockers'], [{ code: 'missing_validator_capability', capability: 'web.read' }]);
    const routed = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'prototype-spike' });
    assert.equal(routed['status'], 'active');
    assert.equal(p.currentStep, 'prototype-spike');
  });
});
