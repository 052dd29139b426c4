/**
 * How the `rimthan` executable fails (ARCHITECTURE.md: "One place sets the exit code"): errors go to stderr as one
 * line without a stack or message of an unexpected error, unless `--debug` asks for it; usage errors exit 2, failures 1.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { captureIo } from '../../cli/support.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const MARKER = 'cli-secret-marker-9d2e';
const STACK_LINE = /\n\s+at /;

function rimthan(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [MAIN, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd, XDG_STATE_HOME: cwd },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function post(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });
}

describe('rimthan error reporting', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-sec-cli-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const store = `sqlite:${join(work, 'runs.db')}`;

  test('a fault thrown outside any command (a late uncaught exception) prints its kind only and exits 1', () => {
    const flows = join(work, 'late-throw.mjs');
    writeFileSync(
      flows,
      `setTimeout(() => { throw new TypeError(${JSON.stringify(`${MARKER} /work/secret.ts`)}); }, 50);\nexport const flows = [];\n`,
    );
    const result = rimthan(['runs', 'list', '--store', store, '--session', 's', '--flows', flows], work);
    assert.equal(result.status, 1, result.stderr);
    assert.doesNotMatch(result.stderr, new RegExp(MARKER));
    assert.doesNotMatch(result.stderr, STACK_LINE);
    assert.match(result.stderr, /^rimthan: .*TypeError/m);
  });

  test('a working directory that no longer exists is a one-line failure, not a stack', () => {
    const gone = join(work, 'gone');
    const script = 'mkdir "$1" && cd "$1" && rmdir "$1" && exec "$2" "$3" registry check .';
    const result = spawnSync('/bin/sh', ['-c', script, 'sh', gone, process.execPath, MAIN], {
      env: { PATH: process.env['PATH'] ?? '', HOME: work, XDG_STATE_HOME: work },
      encoding: 'utf8',
      timeout: 15_000,
    });
    assert.equal(result.status, 1, result.stderr);
    assert.doesNotMatch(result.stderr, STACK_LINE);
    assert.match(result.stderr, /^rimthan: /);
  });

  test("a module that fails to load is reported in one line by path and its own message's first line, no stack", () => {
    const flows = join(work, 'broken.mjs');
    writeFileSync(flows, `throw new Error(${JSON.stringify(`${MARKER}\nsecond line`)});\n`);
    const result = rimthan(['runs', 'list', '--store', store, '--session', 's', '--flows', flows], work);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, `rimthan: cannot load --flows module ${flows}: ${MARKER}\n`);
    assert.doesNotMatch(result.stderr, STACK_LINE);
  });

  test('--debug adds the stack and causes for the operator', () => {
    const flows = join(work, 'broken-debug.mjs');
    writeFileSync(flows, `throw new Error(${JSON.stringify(MARKER)});\n`);
    const result = rimthan(['--debug', 'runs', 'list', '--store', store, '--session', 's', '--flows', flows], work);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(MARKER));
    assert.match(result.stderr, STACK_LINE);
  });

  test('exit codes: 2 for usage errors, 1 for failures; errors on stderr without a stack', () => {
    for (const [args, code] of [
      [['serve', '--port', '99999'], 2],
      [['serve', '--bogus'], 2],
      [['serve', '--transport', 'http', '--token-file', join(work, 'missing-token')], 1],
      [['runs', 'get', 'not-a-uuid', '--store', store, '--session', 's'], 1],
      [['serve', '--profile', 'runs', '--transport', 'http', '--host', '0.0.0.0', '--store', store], 2],
    ] as const) {
      const result = rimthan([...args], work);
      assert.equal(result.status, code, `${args.join(' ')}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, STACK_LINE);
      assert.ok(result.stderr.trim() !== '', 'the reason is on stderr');
    }
  });

  test('a token file holds one bearer token per line; each is accepted, anything else is 401', async () => {
    const tokens = ['first-token-0123456789abcdef', 'second-token-0123456789abcdef'];
    const file = join(work, 'tokens');
    writeFileSync(file, `${tokens[0] ?? ''}\n\n  ${tokens[1] ?? ''}  \n`, { mode: 0o600 });
    const io = captureIo(work, { XDG_STATE_HOME: work, HOME: work });
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const serving = runCli(['serve', '--transport', 'http', '--port', '0', '--token-file', file], {
      ...io,
      untilStopped: () => stopped,
    });
    try {
      let url: string | undefined;
      while (url === undefined) {
        await new Promise((resolve) => setImmediate(resolve));
        url = /listening on (\S+)/.exec(io.stderr.join('\n'))?.[1];
      }
      for (const token of tokens) assert.equal(await post(url, token), 200, token);
      assert.equal(await post(url, 'third-token-0123456789abcdef'), 401);
    } finally {
      stop();
      assert.equal(await serving, 0, io.stderr.join('\n'));
    }
    assert.ok(!io.stderr.join('\n').includes(tokens[0] ?? '?'), 'tokens are never printed');
  });
});
