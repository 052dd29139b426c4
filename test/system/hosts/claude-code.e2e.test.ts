/**
 * The real Claude Code CLI (pinned in devDependencies) follows Rimthan end to end with a scripted model: the packaged
 * research-decision workflow on both routes (desk research over stdio, the prototype spike over Streamable HTTP with a
 * bearer token), validators as Claude Code's own subagents with one failed report repaired, and the durable runs
 * profile's shipped flow resumed past its approval although `claude -p` cancels every form.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DESK_ROUTE, SPIKE_ROUTE } from './scenarios/billing-queue.js';
import { CLAUDE_CODE } from './support/host-profiles.js';
import { hostSkipReason } from './support/run-host.js';
import { HostWorld, resumeCalls } from './support/host-world.js';
import { negotiation } from './support/tap-log.js';

const binary = CLAUDE_CODE.binary();
const skip = hostSkipReason('Claude Code', binary) ?? false;

describe(`Claude Code ${binary?.version ?? ''} follows Rimthan`, { skip }, () => {
  const world = new HostWorld(CLAUDE_CODE);
  after(() => world.close());

  test('desk research over stdio: setup attested, validators as subagents, one repair, completed', async () => {
    const { run } = await world.research(DESK_ROUTE, 'stdio');
    assert.ok(negotiation(run.tap).protocol !== undefined, 'the tap saw the session open');
  });

  test('prototype spike over Streamable HTTP with a bearer token: completed', async () => {
    await world.research(SPIKE_ROUTE, 'http');
  });

  test('the runs profile over HTTP: release_notes approved although claude -p cancels the form', async () => {
    const run = await world.releaseNotes('http');
    // On MCP 2026-07-28 the resume was put to the person as a form; claude -p cancelled it, and the call went on with
    // the approval it carried.
    const resumes = resumeCalls(run);
    assert.equal(resumes.length, 2, 'the resume was asked as a form, then called again with the answer');
    assert.deepEqual(
      Object.values(resumes[1]?.inputResponses ?? {}).map((r) => r.action),
      ['cancel'],
      'claude -p cancelled the form',
    );
  });
});
