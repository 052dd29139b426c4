/**
 * Driving the real `rimthan participant` executable against a real server: a stdio server command (each CLI call
 * launches `rimthan serve`; the signing key is kept in the shared state folder) or one `rimthan serve --transport
 * http` process with a bearer token file. Also the loop a person runs with `participant run`: run, and where it
 * stops, write the files it asks for or repair what a validator found, until the workflow is complete.
 */
import { str } from '../../../src/participant/index.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../../src/core/index.js';
import type { ServerTarget } from '../../../src/participant/index.js';
import { NEEDS_REPAIR, writeStepOutputs } from './agent.js';

export const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
export const VALIDATOR = fileURLToPath(new URL('./validator-cli.js', import.meta.url));
export const VALIDATOR_COMMAND = `${process.execPath} ${VALIDATOR}`;
export const TOKEN = 'participant-test-token-0123456789abcdef';

/** Where the CLI talks to: its options, the library target, and the environment both need. */
export interface Served {
  readonly options: readonly string[];
  readonly target: ServerTarget;
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function baseEnv(state: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', HOME: state, XDG_STATE_HOME: state };
}

/** A stdio server: every CLI call launches `node main.js serve` with the shared state folder. */
export function stdioServer(state: string): Served {
  const env = baseEnv(state);
  return {
    options: ['--server-command', `${process.execPath} ${MAIN} serve`],
    target: { kind: 'stdio', command: process.execPath, args: [MAIN, 'serve'], env },
    env,
    close: () => Promise.resolve(),
  };
}

/** The same HTTP server reached with another of its bearer tokens (another caller), read from its own file. */
export function withToken(served: Served, token: string, file: string): Served {
  if (served.target.kind !== 'http') throw new Error('withToken needs an HTTP server');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return {
    ...served,
    options: ['--url', served.target.url, '--token-file', file],
    target: { ...served.target, token },
  };
}

/**
 * One `rimthan serve --transport http --port 0 --token-file` process accepting `tokens` (each its own caller); the
 * CLI reads the first token from a file of its own.
 */
export async function httpServer(state: string, tokens: readonly string[] = [TOKEN]): Promise<Served> {
  const serverTokens = join(state, 'server-tokens');
  writeFileSync(serverTokens, tokens.map((t) => `${t}\n`).join(''), { mode: 0o600 });
  const tokenFile = join(state, 'token');
  writeFileSync(tokenFile, `${tokens[0] ?? TOKEN}\n`, { mode: 0o600 });
  const env = baseEnv(state);
  const child: ChildProcess = spawn(
    process.execPath,
    [MAIN, 'serve', '--transport', 'http', '--port', '0', '--token-file', serverTokens],
    {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${str(code)}: ${err}`)));
  });
  return {
    options: ['--url', url, '--token-file', tokenFile],
    target: { kind: 'http', url, token: tokens[0] ?? TOKEN },
    env,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `rimthan participant <args>` in `cwd`. */
export function participant(
  served: Served,
  cwd: string,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string> } = {},
): CliResult {
  const r = spawnSync(process.execPath, [MAIN, 'participant', ...args, ...served.options], {
    cwd,
    env: { ...served.env, ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `participant status --json`. */
export function status(served: Served, cwd: string): JsonObject {
  const r = participant(served, cwd, ['status', '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as JsonObject;
}

export const HOST = [
  '--harness',
  'claude-code',
  '--capability',
  'mcp.tools',
  '--capability',
  'mcp.resources',
  '--capability',
  'native-subagents',
  '--capability',
  'structured-reports',
  '--capability',
  'project-local-assets',
  '--validator-capability',
  'workspace.read',
  '--validator-capability',
  'web.read',
];

/** What one `participant run` loop to completion met on the way. */
export interface Drive {
  readonly runs: number;
  readonly repaired: string[];
  readonly stepsWritten: string[];
  readonly last: JsonObject;
}

/**
 * `participant run` until it completes: where it stops for files, the agent writes the step's outputs (marking one
 * for repair the first time when `failOnce`); where a validator fails, the agent repairs the marked file.
 */
export async function runToCompletion(
  served: Served,
  cwd: string,
  runArgs: readonly string[],
  opts: { failOnce?: boolean; answersFile?: string } = {},
): Promise<Drive> {
  let failPending = opts.failOnce === true;
  const repaired: string[] = [];
  const stepsWritten: string[] = [];
  let marked: string | undefined;
  for (let runs = 1; runs <= 30; runs++) {
    const r = participant(served, cwd, ['run', '--json', ...runArgs]);
    if (r.status === 0) return { runs, repaired, stepsWritten, last: JSON.parse(r.stdout) as JsonObject };
    assert.equal(r.status, 1, `participant run: ${r.stderr}`);
    if (/is not there yet/.test(r.stderr)) {
      const wrote = await writeStepOutputs(served.target, cwd, { markForRepair: failPending });
      stepsWritten.push(wrote.step);
      if (wrote.marked !== undefined) {
        marked = wrote.marked;
        failPending = false;
      }
    } else if (/needs an answer to /.test(r.stderr) && opts.answersFile !== undefined) {
      // A branch the answers do not cover yet: the person picks the first option the served question offers.
      const m = /needs an answer to (\S+) \(options: ([^)]*)\)/.exec(r.stderr);
      assert.ok(m?.[1] !== undefined && m[2] !== undefined, r.stderr);
      const { readFileSync } = await import('node:fs');
      const answers = JSON.parse(readFileSync(opts.answersFile, 'utf8')) as JsonObject;
      answers[m[1]] = m[2].split(', ')[0] ?? '';
      writeFileSync(opts.answersFile, JSON.stringify(answers));
    } else if (/validation failed: /.test(r.stderr)) {
      assert.ok(marked !== undefined, `a validator failed with nothing marked: ${r.stdout}`);
      const { readFileSync } = await import('node:fs');
      const path = join(cwd, marked);
      writeFileSync(path, readFileSync(path, 'utf8').replace(`\n${NEEDS_REPAIR}\n`, ''));
      repaired.push(marked);
      marked = undefined;
    } else {
      assert.fail(`participant run stopped: ${r.stderr}\n${r.stdout.slice(0, 2000)}`);
    }
  }
  assert.fail('participant run did not complete in 30 runs');
}
