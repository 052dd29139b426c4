/**
 * `rimthan runs session-id`: the session an HTTP caller with a bearer token gets, computed from the token on stdin or
 * in a token file (never from the command line); an operator uses it to see that caller's runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject } from '../../src/core/index.js';
import { runCli } from '../../src/cli/run.js';
import { principalIdOf } from '../../src/identity/index.js';
import { callTool } from '../mcp/support/connect.js';
import { repositoryWith } from '../runs/fixtures/git-repo.js';
import { captureIo } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const TOKENS = ['alice-token-6b1f0c2e9d7a4853', 'bob-token-0f3e2d1c4b5a6978'];

function sessionIds(args: string[], input: string, cwd: string): { status: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [MAIN, 'runs', 'session-id', ...args], { cwd, input, encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

describe('rimthan runs session-id', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-session-id-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const tokenFile = join(work, 'tokens');
  writeFileSync(tokenFile, `${TOKENS.join('\n')}\n`, { mode: 0o600 });

  test('prints one session id per token, from stdin or --token-file, as bearer-<32 hex>', () => {
    const piped = sessionIds([], `${TOKENS[0] ?? ''}\n`, work);
    assert.equal(piped.status, 0, piped.err);
    assert.match(piped.out, /^bearer-[0-9a-f]{32}\n$/);
    assert.equal(piped.out.trim(), principalIdOf({ kind: 'bearer', token: TOKENS[0] ?? '' }));
    const fromFile = sessionIds(['--token-file', tokenFile], '', work);
    assert.equal(fromFile.status, 0, fromFile.err);
    assert.deepEqual(
      fromFile.out.trim().split('\n'),
      TOKENS.map((token) => principalIdOf({ kind: 'bearer', token })),
    );
  });

  test('a token on the command line is refused without echoing it; empty stdin and short tokens fail', () => {
    const argv = sessionIds([TOKENS[0] ?? ''], '', work);
    assert.equal(argv.status, 2);
    assert.ok(!argv.err.includes(TOKENS[0] ?? '?'), 'the token is not echoed');
    assert.match(argv.err, /visible to other users/);
    const empty = sessionIds([], '', work);
    assert.equal(empty.status, 1);
    assert.equal(empty.err, 'rimthan: stdin holds no token\n');
    const short = sessionIds([], 'short\n', work);
    assert.equal(short.status, 1);
    assert.match(short.err, /^rimthan: stdin line 1: a bearer token must be 16 to 4096 printable ASCII characters/);
  });

  test('the id it prints is the session the HTTP runs profile gives that token: the operator sees its runs', async () => {
    repositoryWith(join(work, 'app'), 'v1.0.0', ['feat: one']);
    const store = `sqlite:${join(work, 'runs.db')}`;
    const io = captureIo(work, { HOME: work, XDG_STATE_HOME: work });
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const serving = runCli(
      ['serve', '--profile', 'runs', '--transport', 'http', '--port', '0', '--token-file', tokenFile, '--store', store],
      { ...io, untilStopped: () => stopped },
    );
    let runId: string | undefined;
    try {
      let url: string | undefined;
      while (url === undefined) {
        await new Promise((resolve) => setImmediate(resolve));
        url = /listening on (\S+)/.exec(io.stderr.join('\n'))?.[1];
      }
      const client = new Client({ name: 'session-id', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKENS[1] ?? ''}` } },
        }),
      );
      try {
        const started = await callTool(client, 'workflow_run_start', {
          definition_name: 'release_notes',
          definition_version: 'v1',
          input: { repository: 'app', since: 'v1.0.0', version: '1.1.0' },
        });
        assert.equal(started.isError, false, JSON.stringify(started.value));
        runId = started.value['run_id'] as string;
      } finally {
        await client.close();
      }
    } finally {
      stop();
      assert.equal(await serving, 0, io.stderr.join('\n'));
    }
    const bob = sessionIds([], `${TOKENS[1] ?? ''}\n`, work).out.trim();
    const listed = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store, '--session', bob], listed), 0);
    const runs = (JSON.parse(listed.stdout.join('\n')) as { runs: JsonObject[] }).runs;
    assert.deepEqual(
      runs.map((r) => r['run_id']),
      [runId],
    );
    const alice = sessionIds([], `${TOKENS[0] ?? ''}\n`, work).out.trim();
    const none = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store, '--session', alice], none), 0);
    assert.deepEqual((JSON.parse(none.stdout.join('\n')) as { runs: JsonObject[] }).runs, []);
  });
});
