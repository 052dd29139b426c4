/**
 * The real Codex (the pinned devDependency) reads what `rimthan rollout codex` writes: `codex mcp get` and `codex mcp
 * list` show the server table from the written `config.toml` (in a scratch CODEX_HOME), and the `requirements.toml`
 * allowlist entry keeps the server enabled where an allowlist that does not name it disables it. Codex reads managed
 * requirements only from /etc/codex/requirements.toml (no override), so that part runs only as root and puts the
 * file back afterwards. With `--oauth`, Codex follows a real `rimthan serve`'s OAuth metadata to the issuer.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MAIN } from '../../support/serve-process.js';
import { codexBinary } from './support/host-bins.js';
import { startOAuthEndpoint } from './support/oauth-endpoint.js';
import { hostSkipReason, placeSystemFile, runHost, runningAsRoot } from './support/run-host.js';

const codex = codexBinary();
const skip = hostSkipReason('Codex', codex);
const ENDPOINT = 'https://mcp.example.org/mcp';
const REQUIREMENTS = '/etc/codex/requirements.toml';

interface ListedServer {
  name: string;
  enabled: boolean;
  disabled_reason: string | null;
  transport: { type: string; url: string; bearer_token_env_var: string | null };
  auth_status?: string;
}

describe(`Codex ${codex?.version ?? ''} reads the rollout config.toml and requirements.toml`, { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-codex-rollout-'));
  const at = (...parts: string[]): string => join(work, ...parts);
  after(() => rmSync(work, { recursive: true, force: true }));

  /** `rimthan rollout codex ARGS --out DIR`, then a CODEX_HOME holding only the written config.toml. */
  const rolledOut = (name: string, args: readonly string[]): { out: string; codexHome: string } => {
    const out = at(name);
    const r = spawnSync(process.execPath, [MAIN, 'rollout', 'codex', ...args, '--out', out], {
      env: { PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const codexHome = at(`${name}-codex-home`);
    mkdirSync(codexHome);
    copyFileSync(join(out, 'config.toml'), join(codexHome, 'config.toml'));
    return { out, codexHome };
  };
  const codexRun = (codexHome: string, args: readonly string[]) =>
    runHost(codex!, args, { cwd: work, env: { HOME: work, CODEX_HOME: codexHome } });
  const listed = async (codexHome: string): Promise<ListedServer[]> => {
    const r = await codexRun(codexHome, ['mcp', 'list', '--json']);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as ListedServer[];
  };

  test('codex mcp get and codex mcp list show the server table read from the written config.toml', async () => {
    const { codexHome } = rolledOut('bearer', ['--url', ENDPOINT]);
    const got = await codexRun(codexHome, ['mcp', 'get', 'rimthan', '--json']);
    assert.equal(got.status, 0, got.stderr);
    const server = JSON.parse(got.stdout) as ListedServer;
    assert.equal(server.name, 'rimthan');
    assert.equal(server.enabled, true);
    assert.deepEqual(
      [server.transport.type, server.transport.url, server.transport.bearer_token_env_var],
      ['streamable_http', ENDPOINT, 'RIMTHAN_TOKEN'],
    );
    const [entry, ...others] = await listed(codexHome);
    assert.deepEqual(others, []);
    assert.equal(entry?.auth_status, 'bearer_token');
  });

  test('requirements.toml: its entry keeps rimthan enabled; an allowlist that does not name it disables it', async (t) => {
    if (!runningAsRoot()) {
      t.skip(`Codex reads managed requirements only from ${REQUIREMENTS}; writing it needs root`);
      return;
    }
    const { out, codexHome } = rolledOut('allowlist', ['--url', ENDPOINT]);
    const cases: [string, string, boolean][] = [
      ['as written', readFileSync(join(out, 'requirements.toml'), 'utf8'), true],
      ['naming another server', '[mcp_servers.other]\nidentity = { url = "https://mcp.example.org/mcp" }\n', false],
      [
        'naming rimthan at another URL',
        '[mcp_servers.rimthan]\nidentity = { url = "https://elsewhere.example/mcp" }\n',
        false,
      ],
    ];
    for (const [what, requirements, enabled] of cases) {
      const restore = placeSystemFile(REQUIREMENTS, requirements);
      try {
        const [entry] = await listed(codexHome);
        assert.equal(entry?.enabled, enabled, `${what}: ${JSON.stringify(entry)}`);
        if (!enabled) assert.match(entry?.disabled_reason ?? '', /requirements/, what);
      } finally {
        restore();
      }
    }
  });

  test("with --oauth, Codex follows the server's OAuth metadata to the issuer", async () => {
    const endpoint = await startOAuthEndpoint(at('oauth-server'));
    try {
      const { codexHome } = rolledOut('oauth', [
        '--url',
        endpoint.url,
        '--oauth',
        '--oauth-client-id',
        'rimthan-codex',
      ]);
      const [entry] = await listed(codexHome);
      assert.equal(entry?.transport.bearer_token_env_var, null);
      assert.equal(entry?.auth_status, 'not_logged_in', JSON.stringify(entry));
      assert.ok(
        endpoint.issuerRequests().some((r) => r.startsWith('GET /.well-known/')),
        `the issuer's metadata was asked for: ${endpoint.issuerRequests().join(', ')}`,
      );
    } finally {
      await endpoint.stop();
    }
  });
});
