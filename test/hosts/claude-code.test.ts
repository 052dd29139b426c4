/**
 * The real Claude Code CLI (pinned in devDependencies) follows Rimthan end to end with a scripted model: the packaged
 * research-decision workflow on both routes (desk research over stdio, the prototype spike over Streamable HTTP with a
 * bearer token), validators as Claude Code's own subagents with one failed report repaired, and the durable runs
 * profile's shipped flow resumed past its approval although `claude -p` cancels every form.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { spawnServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { DESK_ROUTE, SPIKE_ROUTE } from './scenarios/billing-queue.js';
import type { Scenario } from './scenarios/billing-queue.js';
import { claudeCodeVocabulary } from './support/agent/claude-code-vocabulary.js';
import { guidedAgent } from './support/agent/guided-agent.js';
import { runsAgent } from './support/agent/runs-agent.js';
import { runClaudeCode } from './support/claude-code.js';
import type { RimthanRegistration } from './support/claude-code.js';
import { assertGuidedRun } from './support/guided-host-run.js';
import { claudeCodeBinary } from './support/host-bins.js';
import { CLAUDE_CODE_DECLARATION, personPrompt } from './support/person.js';
import { addReleaseHistory, RELEASE_NOTES_FILES } from './support/release-notes-repo.js';
import { makeScratch } from './support/scratch.js';
import type { Scratch } from './support/scratch.js';
import { negotiation } from './support/tap-log.js';

const binary = claudeCodeBinary();
const skip =
  binary === undefined && process.env['CI'] !== 'true' ? 'Claude Code is not installed (npm ci installs it)' : false;
const TOKEN = 'claude-code-host-test-token-0123456789';

describe(`Claude Code ${binary?.version ?? ''} follows Rimthan`, { skip }, () => {
  const scratches: Scratch[] = [];
  const servers: ServeProcess[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const s of scratches) s.remove();
  });

  async function research(scenario: Scenario, server: (scratch: Scratch) => Promise<RimthanRegistration>) {
    const scratch = makeScratch(`claude-${scenario.id}`, scenario.repository);
    scratches.push(scratch);
    const host = claudeCodeVocabulary({ declaration: CLAUDE_CODE_DECLARATION, validatorAgentType: 'general-purpose' });
    const run = await runClaudeCode({
      scratch,
      model: guidedAgent({ scenario, host }),
      server: await server(scratch),
      prompt: personPrompt(scenario),
      maxTurns: 90,
    });
    return { run, figures: assertGuidedRun(run, scenario, scratch) };
  }

  async function httpServer(scratch: Scratch, profile: readonly string[] = []): Promise<RimthanRegistration> {
    const tokenFile = join(scratch.root, 'token');
    writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
    const serve = await spawnServe(
      ['--transport', 'http', '--port', '0', '--token-file', tokenFile, ...profile],
      { HOME: scratch.home, XDG_STATE_HOME: join(scratch.home, '.local', 'state') },
      { cwd: scratch.repo },
    );
    servers.push(serve);
    return { kind: 'http', url: serve.url, token: TOKEN };
  }

  test('desk research over stdio: setup attested, validators as subagents, one repair, completed', async () => {
    const { run } = await research(DESK_ROUTE, () => Promise.resolve({ kind: 'stdio', args: [] }));
    const opened = negotiation(run.tap);
    assert.ok(opened.protocol !== undefined, 'the tap saw the session open');
  });

  test('prototype spike over Streamable HTTP with a bearer token: completed', async () => {
    await research(SPIKE_ROUTE, (scratch) => httpServer(scratch));
  });

  test('the runs profile: release_notes started, followed and approved although the host cancels the form', async () => {
    const scratch = makeScratch('claude-runs', RELEASE_NOTES_FILES);
    scratches.push(scratch);
    addReleaseHistory(scratch);
    const host = claudeCodeVocabulary({ declaration: CLAUDE_CODE_DECLARATION, validatorAgentType: 'general-purpose' });
    const tools = ['workflow_definition_list', 'workflow_run_start', 'workflow_run_get', 'workflow_run_resume'];
    const run = await runClaudeCode({
      scratch,
      model: runsAgent(
        { toolPrefix: 'mcp__rimthan__', input: { since: 'v1.2.0', version: '1.3.0' }, approve: true },
        host,
        (t) => ({
          name: 'ToolSearch',
          args: t.system.includes('mcp__rimthan__workflow_run_start')
            ? { query: `select:${tools.map((x) => `mcp__rimthan__${x}`).join(',')}`, max_results: tools.length }
            : { query: '+rimthan workflow_run', max_results: 7 },
        }),
      ),
      server: await httpServer(scratch, ['--profile', 'runs', '--store', `sqlite:${join(scratch.root, 'runs.db')}`]),
      prompt:
        'Start the release_notes flow on this repository since v1.2.0 for version 1.3.0. I have read the draft ' +
        'and approve it: resume the run with my approval, then tell me when CHANGELOG.md is written.',
      maxTurns: 40,
    });
    assert.deepEqual(run.failures, [], run.stderr.slice(-2000));
    assert.equal(run.exitCode, 0, run.stderr.slice(-2000));
    const changelog = join(scratch.repo, 'CHANGELOG.md');
    assert.ok(existsSync(changelog), 'the approved run wrote CHANGELOG.md');
    assert.match(readFileSync(changelog, 'utf8'), /## 1\.3\.0 /);
    assert.ok(!existsSync(join(scratch.repo, 'CHANGELOG.draft.md')), 'the draft was consumed');
    // On MCP 2026-07-28 the resume was put to the person as a form; claude -p cancelled it, and the call went on with
    // the approval it carried.
    const resumes = run.tap.filter(
      (e) =>
        e.dir === 'in' &&
        typeof e.message === 'object' &&
        e.message['method'] === 'tools/call' &&
        (e.message['params'] as { name?: string }).name === 'workflow_run_resume',
    );
    const answered = resumes.map(
      (e) => (e.message as { params: { inputResponses?: Record<string, { action?: string }> } }).params,
    );
    assert.equal(resumes.length, 2, 'the resume was asked as a form, then called again with the answer');
    assert.deepEqual(
      Object.values(answered[1]?.inputResponses ?? {}).map((r) => r.action),
      ['cancel'],
      'claude -p cancelled the form',
    );
    const texts = run.requests.map((r) => (r.turn.kind === 'text' ? r.turn.text : '')).filter((x) => x !== '');
    assert.match(texts[texts.length - 1] ?? '', /completed/);
  });
});
