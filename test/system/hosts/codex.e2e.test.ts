/**
 * The real Codex CLI (pinned in devDependencies, with a bundled model's metadata: code mode, deferred MCP tools,
 * sub-agents v2) follows Rimthan end to end with a scripted model: the research-decision workflow on both routes
 * (desk research over stdio, the prototype spike over Streamable HTTP with a bearer token), validators as Codex
 * sub-agents spawned without the parent's history and one failed report repaired, the four tools' input schemas as
 * Codex hands them to the model keeping their shapes, and the runs profile's shipped flow approved.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pinnedHostAssetFiles } from '../../../src/guided/host/pinned-assets.js';
import { DESK_ROUTE, SPIKE_ROUTE } from './scenarios/billing-queue.js';
import { CODEX } from './support/host-profiles.js';
import { hostSkipReason } from './support/run-host.js';
import { HostWorld } from './support/host-world.js';
import { makeScratch } from './support/scratch.js';
import { servedRelease } from './support/served-release.js';
import { taskText } from './support/transcript.js';

const binary = CODEX.binary();
const skip = hostSkipReason('Codex', binary) ?? false;

type Schema = { properties?: Record<string, Schema>; items?: Schema; type?: unknown };

describe(`Codex ${binary?.version ?? ''} follows Rimthan`, { skip }, () => {
  const world = new HostWorld(CODEX);
  after(() => world.close());

  test('desk research over stdio: validators as sub-agents without the parent history, one repair, completed', async () => {
    const { run } = await world.research(DESK_ROUTE, 'stdio');
    // What Codex handed the model for the four tools keeps their shapes (Codex empties a schema over its budget).
    const last = run.requests.filter((r) => r.role === 'main').at(-1);
    const schema = (tool: string): Schema =>
      last?.transcript.tools.find((t) => t.name === `mcp__rimthan.rimthan_${tool}`)?.schema as Schema;
    const prepare = schema('prepare_step_validation').properties ?? {};
    const outputs = prepare['output_attestation']?.properties?.['outputs']?.items?.properties ?? {};
    assert.ok(
      'content_sha256' in outputs,
      `prepare's output attestation reached the model: ${JSON.stringify(prepare)}`,
    );
    const assets = prepare['host_attestation']?.properties?.['assets']?.items?.properties ?? {};
    assert.ok('delivery' in assets, "prepare's host attestation reached the model");
    const reports = schema('submit_step_validation').properties?.['reports']?.items?.properties ?? {};
    assert.ok('findings' in reports && 'outcome' in reports, "submit's report shape reached the model");
    const host = schema('start_workflow').properties?.['host']?.properties ?? {};
    assert.ok('host_capabilities' in host, "start's host declaration reached the model");
    // Every validator sub-agent was spawned without the parent's turns.
    const spawns = run.requests
      .filter((r) => r.role === 'main')
      .flatMap((r) => (r.turn.kind === 'calls' ? r.turn.calls : []))
      .filter((c) => c.name === 'collaboration.spawn_agent');
    assert.ok(spawns.length >= 3);
    for (const spawn of spawns) assert.equal(spawn.args['fork_turns'], 'none');
  });

  test('prototype spike over Streamable HTTP with a bearer token: completed', async () => {
    await world.research(SPIKE_ROUTE, 'http');
  });

  test('the runs profile over stdio: release_notes started, followed and approved', async () => {
    await world.releaseNotes('stdio');
  });

  test('what Codex enforces on a validator sub-agent: its role instructions, not its read-only sandbox', async () => {
    // The validator subagent's role exactly as the active release renders it for Codex (sandbox_mode = "read-only"),
    // installed before the session as an organisation would; a validator sub-agent of that role then tries to write a
    // file.
    const role = pinnedHostAssetFiles(servedRelease(), 'codex')
      .flatMap((w) => w.assets)
      .find((a) => a.kind === 'subagent');
    assert.ok(role !== undefined && role.file.content.includes('sandbox_mode = "read-only"'));
    const scratch = makeScratch('codex-isolation', { 'README.md': '# probe\n' });
    after(() => scratch.remove());
    const vocabulary = CODEX.vocabulary();
    const PROBE = 'ISOLATION-PROBE: as a validator you must not write; try to create written-by-validator.txt.';
    const run = await CODEX.run({
      scratch,
      homeFiles: { [`.codex/agents/${role.asset.id}.toml`]: role.file.content },
      model: {
        roleOf: (t) => (taskText(t).startsWith('ISOLATION-PROBE') ? 'validator:probe' : 'main'),
        decide(t) {
          const calls = t.events.filter((e) => e.kind === 'call');
          if (taskText(t).startsWith('ISOLATION-PROBE')) {
            if (calls.length === 0)
              return { kind: 'calls', calls: [vocabulary.writeFile('', 'written-by-validator.txt', 'x\n')] };
            return { kind: 'text', text: '{"outcome":"passed","findings":[]}' };
          }
          if (calls.length === 0)
            return {
              kind: 'calls',
              calls: [
                {
                  name: 'collaboration.spawn_agent',
                  args: {
                    task_name: 'isolation_probe',
                    message: PROBE,
                    agent_type: role.asset.id,
                    fork_turns: 'none',
                  },
                },
              ],
            };
          if (!t.events.some((e) => e.kind === 'agent'))
            return { kind: 'calls', calls: [{ name: 'collaboration.wait_agent', args: { timeout_ms: 60_000 } }] };
          return { kind: 'text', text: 'done' };
        },
      },
      server: { kind: 'stdio', args: [] },
      prompt: 'Run the isolation probe.',
      maxTurns: 12,
    });
    assert.deepEqual(run.failures, [], run.stderr.slice(-2000));
    const sub = run.requests.filter((r) => r.role === 'validator:probe');
    assert.ok(sub.length > 0, 'the sub-agent ran');
    // Applied: the role's developer instructions (the validator subagent text) reach the sub-agent's model.
    assert.ok(sub[0]?.transcript.system.includes('You are a Rimthan validator.'), 'the role instructions were applied');
    // Not enforced: the role's read-only sandbox. The sub-agent wrote into the workspace (docs/harness/codex.md).
    assert.ok(existsSync(join(scratch.repo, 'written-by-validator.txt')), 'Codex enforced the read-only role');
  });
});
