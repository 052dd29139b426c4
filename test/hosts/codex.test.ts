/**
 * The real Codex CLI (pinned in devDependencies, with a bundled model's metadata: code mode, deferred MCP tools,
 * sub-agents v2) follows Rimthan end to end with a scripted model: the research-decision workflow on both routes
 * (desk research over stdio, the prototype spike over Streamable HTTP with a bearer token), validators as Codex
 * sub-agents spawned without the parent's history and one failed report repaired, the four tools' input schemas as
 * Codex hands them to the model keeping their shapes, and the runs profile's shipped flow approved.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DESK_ROUTE, SPIKE_ROUTE } from './scenarios/billing-queue.js';
import { CODEX } from './support/host-profiles.js';
import { hostSkipReason } from './support/run-host.js';
import { HostWorld } from './support/host-world.js';

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
});
