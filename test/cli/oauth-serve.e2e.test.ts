/**
 * `rimthan serve --transport http` as an OAuth 2.1 resource server: RFC 9728 metadata at the well-known path, 401s
 * whose WWW-Authenticate names it, JWT access tokens from the configured issuer accepted beside static tokens, and
 * (runs profile) the OAuth principal as the session that `rimthan runs session-id --issuer --subject` prints.
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
import { callTool } from '../mcp/support/connect.js';
import { repositoryWith } from '../runs/fixtures/git-repo.js';
import { accessToken, AUDIENCE, ISSUER, jwksOf, signingKey } from '../identity/jwt-support.js';
import { captureIo } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const STATIC_TOKEN = 'static-participant-token-5c1e9f';

async function serving(
  args: string[],
  cwd: string,
): Promise<{ url: string; stderr: () => string; stop: () => Promise<number> }> {
  const io = captureIo(cwd, { HOME: cwd, XDG_STATE_HOME: cwd });
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const exit = runCli(['serve', '--transport', 'http', '--port', '0', ...args], { ...io, untilStopped: () => stopped });
  let url: string | undefined;
  let code: number | undefined;
  void exit.then((c) => (code = c));
  while (url === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (code !== undefined) throw new Error(`serve exited ${code}: ${io.stderr.join('\n')}`);
    url = /listening on (\S+)/.exec(io.stderr.join('\n'))?.[1];
  }
  return {
    url,
    stderr: () => io.stderr.join('\n'),
    stop: async () => {
      stop();
      return exit;
    },
  };
}

async function post(url: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

describe('rimthan serve as an OAuth resource server', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-oauth-serve-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const jwksFile = join(work, 'jwks.json');
  const tokenFile = join(work, 'tokens');
  writeFileSync(tokenFile, `${STATIC_TOKEN}\n`, { mode: 0o600 });
  const oauthArgs = ['--oauth-issuer', ISSUER, '--oauth-audience', AUDIENCE, '--oauth-jwks', jwksFile];

  test('metadata at the well-known path; 401 names it; a valid JWT or the static token is let in', async () => {
    const key = await signingKey('k1');
    writeFileSync(jwksFile, JSON.stringify(jwksOf(key)));
    const server = await serving([...oauthArgs, '--token-file', tokenFile], work);
    try {
      const origin = new URL(server.url).origin;
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const meta = await fetch(`${origin}${path}`);
        assert.equal(meta.status, 200, path);
        assert.equal(meta.headers.get('cache-control'), 'private, no-store');
        const doc = (await meta.json()) as JsonObject;
        assert.equal(doc['resource'], AUDIENCE);
        assert.deepEqual(doc['authorization_servers'], [ISSUER]);
        assert.deepEqual(doc['bearer_methods_supported'], ['header']);
      }
      const metadataUrl = 'https://rimthan.example.test/.well-known/oauth-protected-resource/mcp';
      const none = await post(server.url);
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), `Bearer realm="rimthan", resource_metadata="${metadataUrl}"`);
      const expired = await post(server.url, `Bearer ${await accessToken(key, { expiresIn: -3600 })}`);
      assert.equal(expired.status, 401);
      assert.equal(
        expired.headers.get('www-authenticate'),
        `Bearer realm="rimthan", resource_metadata="${metadataUrl}", error="invalid_token"`,
      );
      assert.equal(((await expired.json()) as { error: { message: string } }).error.message, 'authentication required');
      assert.equal((await post(server.url, `Bearer ${STATIC_TOKEN}`)).status, 200);

      const client = new Client({ name: 'oauth', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${await accessToken(key)}` } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        assert.equal(tools.length, 4);
      } finally {
        await client.close();
      }
      assert.match(server.stderr(), /callers authenticate with 1 bearer token or OAuth access tokens from https:\/\//);
    } finally {
      assert.equal(await server.stop(), 0, server.stderr());
    }
  });

  test('runs profile: the OAuth principal is the session `runs session-id --issuer --subject` prints', async () => {
    const key = await signingKey('k2');
    writeFileSync(jwksFile, JSON.stringify(jwksOf(key)));
    repositoryWith(join(work, 'app'), 'v1.0.0', ['feat: one']);
    const store = `sqlite:${join(work, 'runs.db')}`;
    const server = await serving(['--profile', 'runs', '--store', store, ...oauthArgs], work);
    let runId: string | undefined;
    try {
      const client = new Client({ name: 'oauth-runs', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${await accessToken(key, { sub: 'alice@example' })}` } },
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
      assert.equal(await server.stop(), 0, server.stderr());
    }
    const printed = spawnSync(
      process.execPath,
      [MAIN, 'runs', 'session-id', '--issuer', ISSUER, '--subject', 'alice@example'],
      { cwd: work, encoding: 'utf8' },
    );
    assert.equal(printed.status, 0, printed.stderr);
    const session = printed.stdout.trim();
    assert.match(session, /^oauth-[0-9a-f]{32}$/);
    const listed = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store, '--session', session], listed), 0);
    const runs = (JSON.parse(listed.stdout.join('\n')) as { runs: JsonObject[] }).runs;
    assert.deepEqual(
      runs.map((r) => r['run_id']),
      [runId],
    );
    const half = spawnSync(process.execPath, [MAIN, 'runs', 'session-id', '--issuer', ISSUER], {
      cwd: work,
      encoding: 'utf8',
    });
    assert.equal(half.status, 2);
    assert.match(half.stderr, /--issuer and --subject go together/);
  });
});
