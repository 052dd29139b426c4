/**
 * The real Claude Code (the pinned devDependency) takes what `rimthan rollout claude-code` writes: `claude plugin
 * validate --strict` accepts the marketplace and the plugin, the plugin installs from the marketplace folder, and
 * `claude mcp list` connects to a real `rimthan serve --transport http --token-file F` with the token taken from the
 * environment variable the plugin's `.mcp.json` names. The managed-settings fragment is read where Claude Code reads
 * managed settings on Linux (/etc/claude-code/managed-settings.d/, which has no override), only when running as root
 * and put back afterwards; otherwise the same keys are placed in the scratch user settings, where this version reads
 * them too. Every run has its own HOME, no network traffic beyond the local server, and a dummy API key.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { pinnedHostAssetFiles } from '../../../src/guided/host/pinned-assets.js';
import { claudeCodeBinary } from './support/host-bins.js';
import { startOAuthEndpoint } from './support/oauth-endpoint.js';
import { hostSkipReason, placeSystemFile, runHost, runningAsRoot } from './support/run-host.js';
import type { HostExit } from './support/run-host.js';
import { servedRelease } from './support/served-release.js';

const claude = claudeCodeBinary();
const skip = hostSkipReason('Claude Code', claude);
const SERVER = 'plugin:rimthan:rimthan';

function rollout(args: readonly string[], cwd: string): void {
  const r = spawnSync(process.execPath, [MAIN, 'rollout', 'claude-code', ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
}

interface Validation {
  success: boolean;
  manifest: { type: string; errors: unknown[]; warnings: unknown[] };
  provides: { mcpServers: { name: string; type: string; target: string }[]; [kind: string]: unknown };
}

describe(`Claude Code ${claude?.version ?? ''} takes the rollout plugin`, { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-claude-rollout-'));
  const at = (...parts: string[]): string => join(work, ...parts);
  const token = `claude-rollout-${randomBytes(16).toString('hex')}`;
  const market = at('market');
  let serve: ServeProcess;

  /** `claude ARGS` with a HOME of its own (created when missing), in a project folder. */
  const run = (
    home: string,
    args: readonly string[],
    env: Readonly<Record<string, string>> = {},
  ): Promise<HostExit> => {
    mkdirSync(at(home), { recursive: true });
    mkdirSync(at('project'), { recursive: true });
    return runHost(claude!, args, {
      cwd: at('project'),
      env: {
        HOME: at(home),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ANTHROPIC_API_KEY: 'dummy',
        ...env,
      },
    });
  };
  /** The `claude mcp list` line of the plugin's server, or undefined when Claude Code does not list it. */
  const serverLine = async (home: string, env: Readonly<Record<string, string>>): Promise<string | undefined> => {
    const r = await run(home, ['mcp', 'list'], env);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').find((line) => line.startsWith(`${SERVER}:`));
  };

  before(async () => {
    writeFileSync(at('tokens'), `${token}\n`);
    serve = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', at('tokens')], {
      HOME: work,
      XDG_STATE_HOME: at('state'),
    });
    rollout(['--url', serve.url, '--out', market], work);
  });
  after(async () => {
    await serve?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('claude plugin validate --strict accepts the marketplace and the plugin, with its server and host assets', async () => {
    const marketplace = await run('validate', ['plugin', 'validate', '--strict', '--json', market]);
    assert.equal(marketplace.status, 0, marketplace.stdout);
    const m = JSON.parse(marketplace.stdout) as Validation;
    assert.equal(m.success, true);
    assert.equal(m.manifest.type, 'marketplace');
    assert.deepEqual([m.manifest.errors, m.manifest.warnings], [[], []]);

    const plugin = await run('validate', [
      'plugin',
      'validate',
      '--strict',
      '--json',
      join(market, 'plugins', 'rimthan'),
    ]);
    assert.equal(plugin.status, 0, plugin.stdout);
    const p = JSON.parse(plugin.stdout) as Validation;
    assert.equal(p.success, true);
    assert.equal(p.manifest.type, 'plugin');
    assert.deepEqual([p.manifest.errors, p.manifest.warnings], [[], []]);
    assert.deepEqual(p.provides.mcpServers, [{ name: 'rimthan', type: 'http', target: serve.url }]);
    // Every host asset the active release's workflows pin for Claude Code, once each, in its plugin place.
    const pinned = pinnedHostAssetFiles(servedRelease(), 'claude-code').flatMap((w) => w.assets);
    const ids = (kind: string): string[] =>
      [...new Set(pinned.filter((a) => a.kind === kind).map((a) => `rimthan:${a.asset.id}`))].sort();
    const provided = (key: string): string[] => [...((p.provides[key] as string[] | undefined) ?? [])].sort();
    assert.ok(ids('subagent').length > 0 && ids('skill').length > 0 && ids('prompt').length > 0);
    assert.deepEqual(provided('agents'), ids('subagent'));
    assert.deepEqual(provided('skills'), ids('skill'));
    assert.deepEqual(provided('commands'), ids('prompt'));
  });

  test('installed from the marketplace folder, claude mcp list connects with the token from the environment', async () => {
    const added = await run('installed', ['plugin', 'marketplace', 'add', market, '--json']);
    assert.equal(added.status, 0, `${added.stdout}${added.stderr}`);
    assert.equal((JSON.parse(added.stdout.trim().split('\n').at(-1) ?? '{}') as { outcome?: string }).outcome, 'ok');
    const installed = await run('installed', ['plugin', 'install', 'rimthan@rimthan', '--json']);
    assert.equal(installed.status, 0, `${installed.stdout}${installed.stderr}`);
    assert.equal((JSON.parse(installed.stdout) as { outcome?: string }).outcome, 'ok');

    const connected = await serverLine('installed', { RIMTHAN_TOKEN: token });
    assert.match(connected ?? '', /✔ Connected/, connected);
    assert.ok(connected?.includes(serve.url));
    const refused = await serverLine('installed', { RIMTHAN_TOKEN: 'not-the-token-0123456789' });
    assert.match(refused ?? '', /✘ .*401/, refused);

    const listed = await run('installed', ['plugin', 'list', '--json']);
    const [entry] = JSON.parse(listed.stdout) as { id: string; mcpServers: Record<string, unknown> }[];
    assert.equal(entry?.id, 'rimthan@rimthan');
    assert.deepEqual(entry?.mcpServers, {
      rimthan: { type: 'http', url: serve.url, headers: { Authorization: 'Bearer ${RIMTHAN_TOKEN}' } },
    });
    const config = readFileSync(at('installed', '.claude.json'), 'utf8');
    assert.ok(!config.includes(token), 'Claude Code stored no token');
  });

  test('the managed-settings fragment enables the plugin, and its allowedMcpServers entry is what admits the server', async () => {
    const fragment = JSON.parse(readFileSync(join(market, 'managed-settings.d', 'rimthan.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const root = runningAsRoot();
    const place = (home: string, settings: Record<string, unknown>): (() => void) => {
      const text = `${JSON.stringify(settings, null, 2)}\n`;
      if (root) {
        return placeSystemFile(
          `/etc/claude-code/managed-settings.d/rimthan-rollout-test-${randomBytes(4).toString('hex')}.json`,
          text,
        );
      }
      mkdirSync(at(home, '.claude'), { recursive: true });
      writeFileSync(at(home, '.claude', 'settings.json'), text);
      return () => rmSync(at(home, '.claude', 'settings.json'), { force: true });
    };
    const cases: [string, Record<string, unknown>, boolean][] = [
      ['as written', fragment, true],
      [
        'allowedMcpServers naming another server',
        { ...fragment, allowedMcpServers: [{ serverUrl: 'https://elsewhere.example/mcp' }] },
        false,
      ],
      ['without enabledPlugins', { ...fragment, enabledPlugins: {} }, false],
    ];
    for (const [i, [what, settings, listed]] of cases.entries()) {
      const home = `managed-${i}`;
      const restore = place(home, settings);
      try {
        const line = await serverLine(home, { RIMTHAN_TOKEN: token });
        if (listed) assert.match(line ?? '', /✔ Connected/, `${what} (${root ? 'managed' : 'user'} settings): ${line}`);
        else assert.equal(line, undefined, `${what} (${root ? 'managed' : 'user'} settings): ${line}`);
      } finally {
        restore();
      }
      const plugins = await run(home, ['plugin', 'list', '--json']);
      assert.deepEqual(JSON.parse(plugins.stdout), [], 'enabled by settings alone: nothing was installed');
    }
  });

  test("with --oauth, Claude Code follows the server's OAuth metadata to the sign-in", async () => {
    const endpoint = await startOAuthEndpoint(at('oauth-server'));
    try {
      const out = at('market-oauth');
      rollout(
        [
          '--url',
          endpoint.url,
          '--out',
          out,
          '--oauth',
          '--oauth-client-id',
          'rimthan-test',
          '--oauth-callback-port',
          '18931',
        ],
        work,
      );
      const plugin = await run('oauth', ['plugin', 'validate', '--strict', '--json', join(out, 'plugins', 'rimthan')]);
      assert.equal(plugin.status, 0, plugin.stdout);
      assert.equal((await run('oauth', ['plugin', 'marketplace', 'add', out])).status, 0);
      assert.equal((await run('oauth', ['plugin', 'install', 'rimthan@rimthan'])).status, 0);
      const line = await serverLine('oauth', {});
      assert.match(line ?? '', /Needs authentication/, line);
      assert.ok(
        endpoint.issuerRequests().some((r) => r.startsWith('GET /.well-known/')),
        `the issuer's metadata was asked for: ${endpoint.issuerRequests().join(', ')}`,
      );
      const details = await run('oauth', ['mcp', 'get', SERVER]);
      assert.match(details.stdout, /OAuth: client_id configured, callback_port 18931/);
    } finally {
      await endpoint.stop();
    }
  });
});
