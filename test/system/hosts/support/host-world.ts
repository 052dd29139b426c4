/**
 * The runs every host test makes, on any pinned host: a research-decision route end to end (checked by
 * assertGuidedRun), and the runs profile's shipped release_notes flow started, followed and approved. Servers over
 * HTTP run as an organisation's would (a token file, loopback); scratch folders and servers are removed by close().
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServe } from '../../../support/serve-process.js';
import type { ServeProcess } from '../../../support/serve-process.js';
import type { Scenario } from '../scenarios/billing-queue.js';
import { guidedAgent } from './agent/guided-agent.js';
import { researchScript } from './agent/research-script.js';
import { runsAgent } from './agent/runs-agent.js';
import type { HostRun, RimthanRegistration } from './host-session.js';
import { assertGuidedRun } from './guided-host-run.js';
import type { HostProfile } from './host-profiles.js';
import { personPrompt } from './person.js';
import { addReleaseHistory, RELEASE_NOTES_FILES } from './release-notes-repo.js';
import type { RunFigures } from './run-figures.js';
import { makeScratch } from './scratch.js';
import { packageRootOf, pinnedAdapter, servedRelease } from './served-release.js';
import type { Scratch } from './scratch.js';

const TOKEN = 'host-test-bearer-token-0123456789abcdef';

export type Transport = 'stdio' | 'http';

export class HostWorld {
  private readonly scratches: Scratch[] = [];
  private readonly servers: ServeProcess[] = [];

  constructor(readonly host: HostProfile) {}

  private scratch(label: string, files: Readonly<Record<string, string>>): Scratch {
    const scratch = makeScratch(`${this.host.name}-${label}`, files);
    this.scratches.push(scratch);
    return scratch;
  }

  private async register(
    scratch: Scratch,
    transport: Transport,
    args: readonly string[],
  ): Promise<RimthanRegistration> {
    if (transport === 'stdio') return { kind: 'stdio', args };
    const tokenFile = join(scratch.root, 'token');
    writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
    const serve = await spawnServe(
      ['--transport', 'http', '--port', '0', '--token-file', tokenFile, ...args],
      { HOME: scratch.home, XDG_STATE_HOME: join(scratch.home, '.local', 'state') },
      { cwd: scratch.repo },
    );
    this.servers.push(serve);
    return { kind: 'http', url: serve.url, token: TOKEN };
  }

  /** One research-decision route on this host, asserted end to end (over stdio, `main` may name another build). */
  async research(
    scenario: Scenario,
    transport: Transport,
    main?: string,
  ): Promise<{ run: HostRun; figures: RunFigures }> {
    const scratch = this.scratch(scenario.id, scenario.repository);
    const registration = await this.register(scratch, transport, []);
    // The model declares the adapter the served release pins (another build serves its own active release).
    const served = servedRelease(main === undefined ? undefined : packageRootOf(main));
    const adapter = pinnedAdapter(served, 'research-decision', this.host.name);
    const run = await this.host.run({
      scratch,
      model: guidedAgent({ script: researchScript(scenario), host: this.host.vocabulary(adapter) }),
      server: registration.kind === 'stdio' && main !== undefined ? { ...registration, main } : registration,
      prompt: personPrompt(scenario),
      maxTurns: 90,
    });
    return { run, figures: assertGuidedRun(run, scenario, scratch) };
  }

  /** The release_notes flow started, followed and approved on this host; CHANGELOG.md written. */
  async releaseNotes(transport: Transport): Promise<HostRun> {
    const scratch = this.scratch('runs', RELEASE_NOTES_FILES);
    addReleaseHistory(scratch);
    const host = this.host;
    const run = await host.run({
      scratch,
      model: runsAgent(
        { toolPrefix: host.runsToolPrefix, input: { since: 'v1.2.0', version: '1.3.0' }, approve: true },
        host.vocabulary(),
        (t) => host.awaitRunsTools(t),
      ),
      server: await this.register(scratch, transport, [
        '--profile',
        'runs',
        '--store',
        `sqlite:${join(scratch.root, 'runs.db')}`,
      ]),
      prompt:
        'Start the release_notes flow on this repository since v1.2.0 for version 1.3.0. I have read the draft ' +
        'and approve it: resume the run with my approval, then tell me when CHANGELOG.md is written.',
      maxTurns: 40,
      approveTools: true,
    });
    assert.deepEqual(run.failures, [], run.stderr.slice(-2000));
    assert.equal(run.exitCode, 0, run.stderr.slice(-2000));
    const changelog = join(scratch.repo, 'CHANGELOG.md');
    assert.ok(existsSync(changelog), 'the approved run wrote CHANGELOG.md');
    assert.match(readFileSync(changelog, 'utf8'), /## 1\.3\.0 /);
    assert.ok(!existsSync(join(scratch.repo, 'CHANGELOG.draft.md')), 'the draft was consumed');
    const texts = run.requests.map((r) => (r.turn.kind === 'text' ? r.turn.text : '')).filter((x) => x !== '');
    assert.match(texts[texts.length - 1] ?? '', /completed/);
    return run;
  }

  async close(): Promise<void> {
    for (const s of this.servers) await s.stop();
    for (const s of this.scratches) s.remove();
  }
}

/** The workflow_run_resume calls the host sent, with the form answers each carried (from the tap). */
export function resumeCalls(run: HostRun): { inputResponses?: Record<string, { action?: string }> }[] {
  return run.tap
    .filter(
      (e) =>
        e.dir === 'in' &&
        typeof e.message === 'object' &&
        e.message['method'] === 'tools/call' &&
        (e.message['params'] as { name?: string }).name === 'workflow_run_resume',
    )
    .map((e) => (e.message as { params: { inputResponses?: Record<string, { action?: string }> } }).params);
}
