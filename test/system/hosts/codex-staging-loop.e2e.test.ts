/**
 * Codex's scripted staging loop: the real Codex CLI (`codex exec`, workspace-write sandbox, no approvals, no Rimthan
 * MCP server registered) runs `rimthan participant run` with its own shell tool, reads back the exit code and the stop
 * line, writes what the stop asks for (the named step file, the answer in the answers file, the repair a validator's
 * findings call for) and runs it again until the workflow is complete. The scripted model decides only from what Codex hands it; the test then reads the session
 * file and `participant status`. It also shows what Codex's sandbox does to the loop without network access.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { DESK_ROUTE } from './scenarios/billing-queue.js';
import { shellQuote } from './support/agent/host-vocabulary.js';
import { stagingLoopAgent, stagingPrompt, stagingRuns } from './support/agent/staging-loop-agent.js';
import type { StagingRun } from './support/agent/staging-loop-agent.js';
import type { HostRun } from './support/host-session.js';
import { CODEX } from './support/host-profiles.js';
import { hostSkipReason } from './support/run-host.js';
import { makeScratch } from './support/scratch.js';
import type { Scratch } from './support/scratch.js';

const binary = CODEX.binary();
const skip = hostSkipReason('Codex', binary) ?? false;

const TOKEN = 'codex-staging-bearer-token-0123456789abcdef';
const ANSWERS_FILE = 'rimthan-answers.json';
/** The validators, as a command: the host tests' scripted validator checks (research-checks.ts), one process each. */
const VALIDATOR = fileURLToPath(new URL('./support/research-validator-cli.js', import.meta.url));
/** Without it, workspace-write's seccomp filter refuses sockets: loopback HTTP, and Node's child-process pipes. */
const NETWORK = 'sandbox_workspace_write.network_access = true';
/** A person's HOME is not writable in workspace-write; the scratch HOME is under /tmp, so take /tmp away too. */
const REAL_HOME = [
  'sandbox_workspace_write.exclude_slash_tmp = true',
  'sandbox_workspace_write.exclude_tmpdir_env_var = true',
];

/** The `participant run` command line a person gives Codex, for this server (its options). */
function runCommand(server: readonly string[], projectLocal = false): string {
  const words = [
    process.execPath,
    MAIN,
    'participant',
    'run',
    '--workflow',
    'research',
    '--harness',
    'codex',
    ...['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'].flatMap((c) => ['--capability', c]),
    ...(projectLocal ? ['--capability', 'project-local-assets'] : ['--no-project-local']),
    ...['workspace.read', 'web.read'].flatMap((c) => ['--validator-capability', c]),
    '--set',
    `objective=${DESK_ROUTE.objective}`,
    '--answers',
    ANSWERS_FILE,
    '--validator-command',
    `${process.execPath} ${VALIDATOR}`,
    '--yes',
    ...server,
  ];
  return words.map(shellQuote).join(' ');
}

/** `rimthan participant status --json` in the repository, outside Codex. */
function status(scratch: Scratch, server: readonly string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [MAIN, 'participant', 'status', '--json', ...server], {
    cwd: scratch.repo,
    env: { PATH: process.env['PATH'] ?? '', HOME: scratch.home },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** One `codex exec` session told to follow the workflow with `command`, with these config.toml lines. */
function stagingLoop(
  scratch: Scratch,
  command: string,
  configLines: readonly string[],
  maxTurns: number,
): Promise<HostRun> {
  return CODEX.run({
    scratch,
    model: stagingLoopAgent({ scenario: DESK_ROUTE, host: CODEX.vocabulary() }),
    // Never registered: the session reaches Rimthan only through the command.
    server: { kind: 'stdio', args: [] },
    codex: { withoutServer: true, configLines },
    prompt: stagingPrompt(DESK_ROUTE, command, ANSWERS_FILE),
    maxTurns,
  });
}

/** The runs of the command the model made, as it read them back (from the last request Codex sent). */
function runsOf(run: HostRun): StagingRun[] {
  assert.deepEqual(run.failures, [], run.stderr.slice(-2000));
  const last = run.requests.at(-1);
  assert.ok(last !== undefined, 'Codex asked the model');
  return stagingRuns(last.transcript);
}

/** The loop reached `completed`: the model's last run exited 0 and it said so; status agrees, every output accepted. */
function assertCompleted(run: HostRun, scratch: Scratch, server: readonly string[]): void {
  const runs = runsOf(run);
  assert.equal(runs.at(-1)?.exit, 0, `the last run the model made exited 0: ${JSON.stringify(runs)}`);
  const last = run.requests.at(-1);
  assert.match(last?.turn.kind === 'text' ? last.turn.text : '', /complete/);
  // What the model read back and acted on: the step files it was asked for, and the route question.
  const stops = runs.flatMap((r) => (r.stop === undefined ? [] : [r.stop]));
  assert.ok(
    stops.every((x) => x.kind !== 'other'),
    JSON.stringify(stops),
  );
  assert.deepEqual(
    stops.filter((x) => x.kind === 'file').map((x) => (x.kind === 'file' ? x.artifactId : '')),
    ['research-plan', 'evidence-table', 'desk-findings', 'decision-record', 'decision-summary'],
  );
  assert.deepEqual(
    stops.filter((x) => x.kind === 'answer').map((x) => (x.kind === 'answer' ? x.field : '')),
    ['research_route'],
  );
  // The first draft's flaw: a validator of the desk-research step reported it, the model repaired, the rerun passed.
  const failed = stops.filter((x) => x.kind === 'findings');
  assert.equal(failed.length, 1, JSON.stringify(stops));
  assert.deepEqual(failed[0]?.kind === 'findings' ? failed[0].validators : [], ['evidence-quality']);
  // Afterwards, outside Codex: the session file and status say completed, every output accepted.
  const session = JSON.parse(readFileSync(join(scratch.repo, '.rimthan', 'workflow-session.json'), 'utf8')) as object;
  assert.deepEqual(Object.keys(session).sort(), ['checkpoint', 'confirmed_state']);
  const final = status(scratch, server);
  assert.equal(final['completed'], true, JSON.stringify(final));
  const outputs = final['outputs'] as { accepted: boolean }[];
  assert.ok(outputs.length > 0 && outputs.every((o) => o.accepted));
}

describe(`Codex ${binary?.version ?? ''} runs rimthan participant run as its staging loop`, { skip }, () => {
  const scratches: Scratch[] = [];
  const servers: ServeProcess[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
    for (const s of scratches) s.remove();
  });
  const scratch = (label: string): Scratch => {
    const s = makeScratch(`codex-staging-${label}`, DESK_ROUTE.repository);
    scratches.push(s);
    return s;
  };
  /** A `rimthan serve --transport http` with a token file outside the workspace; the CLI's options for it. */
  const httpServer = async (s: Scratch): Promise<string[]> => {
    const tokenFile = join(s.root, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const serve = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', tokenFile], {
      HOME: join(s.root, 'server-home'),
      XDG_STATE_HOME: join(s.root, 'server-home', 'state'),
    });
    servers.push(serve);
    return ['--url', serve.url, '--token-file', tokenFile];
  };
  const stdioServer = ['--server-command', `${process.execPath} ${MAIN} serve`];

  test(
    'what workspace-write refuses: sockets without network access, and writes under .agents/ and .codex/',
    { skip: process.platform !== 'linux' && "the sandbox tested is Linux's" },
    async () => {
      // Over stdio: the child `rimthan serve` cannot talk over its pipes (Node's are Unix socket pairs).
      const stdio = runsOf(await stagingLoop(scratch('no-network-stdio'), runCommand(stdioServer), [], 6));
      assert.deepEqual(stdio, [
        {
          exit: 1,
          stop: {
            kind: 'other',
            line: `rimthan: cannot connect to the server command ${process.execPath}: MCP error -32000: Connection closed`,
          },
        },
      ]);
      // Over HTTP: the loopback connection itself is refused.
      const s = scratch('no-network-http');
      const http = runsOf(await stagingLoop(s, runCommand(await httpServer(s)), [], 6));
      assert.equal(http.length, 1);
      assert.match(
        http[0]?.stop?.kind === 'other' ? http[0].stop.line : '',
        /^rimthan: cannot connect to the server at http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed \(EPERM\)$/,
      );
      // With network access, project-local assets still cannot be delivered: Codex keeps .agents/ and .codex/ read-only.
      const p = scratch('project-local');
      const local = runsOf(await stagingLoop(p, runCommand(await httpServer(p), true), [NETWORK], 6));
      assert.deepEqual(local, [
        {
          exit: 1,
          stop: {
            kind: 'other',
            line: `rimthan: cannot mkdir ${p.repo}/.agents/skills: read-only file system (EROFS)`,
          },
        },
      ]);
    },
  );

  test('over Streamable HTTP with a token file and network access: one repair, completed', async () => {
    const s = scratch('http');
    const server = await httpServer(s);
    assertCompleted(await stagingLoop(s, runCommand(server), [NETWORK, ...REAL_HOME], 40), s, server);
  });

  test('over stdio with network access and the signing-key folder writable: one repair, completed', async () => {
    const s = scratch('stdio');
    // The stdio server keeps its signing key in $XDG_STATE_HOME/rimthan (here ~/.local/state): it must be writable.
    const state = join(s.home, '.local', 'state');
    mkdirSync(state, { recursive: true });
    const roots = `sandbox_workspace_write.writable_roots = [${JSON.stringify(state)}]`;
    assertCompleted(await stagingLoop(s, runCommand(stdioServer), [NETWORK, ...REAL_HOME, roots], 40), s, stdioServer);
  });
});
