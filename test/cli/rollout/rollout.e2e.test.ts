/**
 * `rimthan rollout claude-code|codex` from the built executable: the files each writes (and only those), what they
 * say about the endpoint and how participants authenticate, that no token is ever written, that the plugin's host
 * assets are the very files the server hands out for project-local delivery, and how `--out` treats a folder that is
 * not empty. The real hosts reading these files are tested in test/system/hosts/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { packageRoot } from '../../../src/package/index.js';
import { MAIN, stdioServe } from '../../support/serve-process.js';

const ROOT = packageRoot();
const ACTIVE = readFileSync(join(ROOT, 'releases', 'ACTIVE'), 'utf8').trim();
const RELEASE = JSON.parse(readFileSync(join(ROOT, 'releases', 'dist', `${ACTIVE}.json`), 'utf8')) as {
  manifest_sha256: string;
  workflows: { id: string; host_adapters: Record<string, { id: string; version: string }> }[];
  assets: { kind: string; id: string }[];
};
/** Where the plugin puts each host asset of the active release (one version of each id in a packaged release). */
const PLUGIN_ASSET_PATHS = RELEASE.assets.flatMap(({ kind, id }) => {
  if (kind === 'prompt') return [`plugins/rimthan/commands/${id}.md`];
  if (kind === 'skill') return [`plugins/rimthan/skills/${id}/SKILL.md`];
  if (kind === 'subagent') return [`plugins/rimthan/agents/${id}.md`];
  return [];
});
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };
const ENDPOINT = 'https://mcp.example.org/mcp';

function rimthan(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd, XDG_STATE_HOME: join(cwd, 'state') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir`, as `/`-separated relative paths, sorted. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return found.sort();
}

/** A TOML file as plain objects (the parser's tables have no prototype). */
const readToml = (path: string): unknown => JSON.parse(JSON.stringify(parseToml(readFileSync(path, 'utf8'))));

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('rimthan rollout', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-rollout-'));
  const at = (...parts: string[]): string => join(work, ...parts);
  after(() => rmSync(work, { recursive: true, force: true }));

  test('rimthan --help and rimthan rollout --help list both rollout commands', () => {
    const main = rimthan(['--help'], work);
    assert.equal(main.status, 0);
    assert.match(main.stdout, /rollout claude-code\|codex/);
    for (const args of [
      ['rollout', '--help'],
      ['rollout', 'claude-code', '--help'],
      ['rollout', 'codex', '-h'],
    ]) {
      const help = rimthan(args, work);
      assert.equal(help.status, 0, args.join(' '));
      assert.match(help.stdout, /rimthan rollout claude-code --url URL --out DIR/);
      assert.match(help.stdout, /rimthan rollout codex --url URL --out DIR/);
      assert.match(help.stdout, /--oauth-client-id/);
    }
  });

  test('claude-code writes the marketplace, the plugin and the managed-settings fragment, and prints each file', () => {
    const r = rimthan(['rollout', 'claude-code', '--url', ENDPOINT, '--out', 'market'], work);
    assert.equal(r.status, 0, r.stderr);
    const written = filesUnder(at('market'));
    assert.deepEqual(
      written,
      [
        '.claude-plugin/marketplace.json',
        'managed-settings.d/rimthan.json',
        'plugins/rimthan/.claude-plugin/plugin.json',
        'plugins/rimthan/.mcp.json',
        'plugins/rimthan/README.md',
        ...PLUGIN_ASSET_PATHS,
      ].sort(),
    );
    assert.ok(written.includes('plugins/rimthan/agents/workflow-validator.md'), 'the shared validator subagent');
    for (const path of written) assert.match(r.stdout, new RegExp(`^ {2}${path.replace(/\./g, '\\.')} `, 'm'), path);
    assert.match(r.stdout, new RegExp(`host assets from release ${ACTIVE.replace(/\./g, '\\.')}`));

    const marketplace = readJson(at('market', '.claude-plugin', 'marketplace.json'));
    assert.equal(marketplace['name'], 'rimthan');
    assert.deepEqual(marketplace['owner'], { name: 'mcp.example.org' });
    const [entry] = marketplace['plugins'] as Record<string, unknown>[];
    assert.equal(entry?.['source'], './plugins/rimthan');
    assert.equal(entry?.['version'], PACKAGE.version);
    const plugin = readJson(at('market', 'plugins', 'rimthan', '.claude-plugin', 'plugin.json'));
    assert.equal(plugin['name'], 'rimthan');
    assert.equal(plugin['version'], PACKAGE.version);
    assert.equal(plugin['license'], PACKAGE.license);
    assert.deepEqual(readJson(at('market', 'plugins', 'rimthan', '.mcp.json')), {
      mcpServers: {
        rimthan: { type: 'http', url: ENDPOINT, headers: { Authorization: 'Bearer ${RIMTHAN_TOKEN}' } },
      },
    });
    assert.deepEqual(readJson(at('market', 'managed-settings.d', 'rimthan.json')), {
      extraKnownMarketplaces: { rimthan: { source: { source: 'directory', path: at('market') } } },
      enabledPlugins: { 'rimthan@rimthan': true },
      allowedMcpServers: [{ serverUrl: ENDPOINT }],
    });
    const readme = readFileSync(at('market', 'plugins', 'rimthan', 'README.md'), 'utf8');
    assert.ok(readme.includes(`release \`${ACTIVE}\``), 'the README names the release');
    assert.ok(readme.includes(RELEASE.manifest_sha256), 'and its manifest digest');
    assert.ok(readme.includes('`RIMTHAN_TOKEN`'), 'and where the token comes from');
  });

  test("the plugin's host assets are, byte for byte, the files the server hands out for project-local delivery", async () => {
    const out = at('assets');
    assert.equal(rimthan(['rollout', 'claude-code', '--url', ENDPOINT, '--out', out], work).status, 0);
    const pin = RELEASE.workflows[0]?.host_adapters['claude-code'];
    assert.ok(pin !== undefined);
    const { client } = await stdioServe([], { cwd: work, env: { HOME: work, XDG_STATE_HOME: at('state') } });
    try {
      const result = await client.callTool({
        name: 'rimthan.start_workflow',
        arguments: {
          workflow: 'research',
          confirmed_state: {
            state: { objective: 'Pick a queue for billing events' },
            confirmations: { objective: { confirmed_by: 'participant', confirmed_at: '2026-11-29T20:00:00Z' } },
          },
          host: {
            harness: 'claude-code',
            adapter: { id: pin.id, version: pin.version },
            host_capabilities: [
              'mcp.tools',
              'mcp.resources',
              'native-subagents',
              'structured-reports',
              'project-local-assets',
            ],
            validator_capabilities: ['workspace.read', 'web.read'],
            repository_policy: { conflict: false },
          },
        },
      });
      const value = result.structuredContent as {
        step: { host_assets: { project_local: { path: string; content: string; sha256: string } | null }[] };
      };
      const offered = value.step.host_assets.map((a) => a.project_local);
      assert.equal(offered.length, 3);
      for (const file of offered) {
        assert.ok(file !== null, 'every asset is offered as a project-local file');
        const pluginPath = join(out, 'plugins', 'rimthan', ...file.path.replace(/^\.claude\//, '').split('/'));
        const bytes = readFileSync(pluginPath, 'utf8');
        assert.equal(bytes, file.content, file.path);
        assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.path);
      }
    } finally {
      await client.close();
    }
  });

  test('codex writes the config.toml table and the requirements.toml allowlist entry', () => {
    const r = rimthan(['rollout', 'codex', '--url', ENDPOINT, '--out', 'codex'], work);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(filesUnder(at('codex')), ['config.toml', 'requirements.toml']);
    assert.match(r.stdout, /^ {2}config\.toml /m);
    assert.match(r.stdout, /^ {2}requirements\.toml /m);
    assert.deepEqual(readToml(at('codex', 'config.toml')), {
      mcp_servers: { rimthan: { url: ENDPOINT, bearer_token_env_var: 'RIMTHAN_TOKEN' } },
    });
    assert.deepEqual(readToml(at('codex', 'requirements.toml')), {
      mcp_servers: { rimthan: { identity: { url: ENDPOINT } } },
    });
  });

  test('--token-env and --oauth change only how participants authenticate; no file ever holds a token', () => {
    const cases: [string[], (dir: string) => void][] = [
      [
        ['claude-code', '--token-env', 'ACME_RIMTHAN_TOKEN'],
        (dir) =>
          assert.deepEqual(readJson(join(dir, 'plugins', 'rimthan', '.mcp.json')), {
            mcpServers: {
              rimthan: { type: 'http', url: ENDPOINT, headers: { Authorization: 'Bearer ${ACME_RIMTHAN_TOKEN}' } },
            },
          }),
      ],
      [
        ['claude-code', '--oauth', '--oauth-client-id', 'rimthan-claude', '--oauth-callback-port', '8123'],
        (dir) =>
          assert.deepEqual(readJson(join(dir, 'plugins', 'rimthan', '.mcp.json')), {
            mcpServers: {
              rimthan: { type: 'http', url: ENDPOINT, oauth: { clientId: 'rimthan-claude', callbackPort: 8123 } },
            },
          }),
      ],
      [
        ['claude-code', '--oauth'],
        (dir) =>
          assert.deepEqual(readJson(join(dir, 'plugins', 'rimthan', '.mcp.json')), {
            mcpServers: { rimthan: { type: 'http', url: ENDPOINT } },
          }),
      ],
      [
        ['codex', '--token-env', 'ACME_RIMTHAN_TOKEN'],
        (dir) =>
          assert.deepEqual(readToml(join(dir, 'config.toml')), {
            mcp_servers: { rimthan: { url: ENDPOINT, bearer_token_env_var: 'ACME_RIMTHAN_TOKEN' } },
          }),
      ],
      [
        ['codex', '--oauth', '--oauth-client-id', 'rimthan-codex'],
        (dir) =>
          assert.deepEqual(readToml(join(dir, 'config.toml')), {
            mcp_servers: { rimthan: { url: ENDPOINT, oauth: { client_id: 'rimthan-codex' } } },
          }),
      ],
    ];
    const token = 'participant-token-never-written-0123456789';
    cases.forEach(([args, check], i) => {
      const dir = at(`auth-${i}`);
      const r = spawnSync(process.execPath, [MAIN, 'rollout', ...args, '--url', ENDPOINT, '--out', dir], {
        env: { PATH: process.env['PATH'] ?? '', RIMTHAN_TOKEN: token, RIMTHAN_MCP_BEARER_TOKEN: token },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      check(dir);
      for (const file of filesUnder(dir)) {
        assert.ok(!readFileSync(join(dir, file), 'utf8').includes(token), `${args.join(' ')}: ${file} holds no token`);
      }
      assert.ok(!r.stdout.includes(token));
    });
  });

  test('--marketplace-source names a folder, a GitHub repository or a Git URL in the managed settings', () => {
    const cases: [string, unknown][] = [
      ['/opt/rimthan/claude-marketplace', { source: 'directory', path: '/opt/rimthan/claude-marketplace' }],
      ['acme/claude-plugins', { source: 'github', repo: 'acme/claude-plugins' }],
      [
        'https://git.acme.example/tools/claude-plugins.git',
        { source: 'git', url: 'https://git.acme.example/tools/claude-plugins.git' },
      ],
      [
        'git@git.acme.example:tools/claude-plugins.git',
        { source: 'git', url: 'git@git.acme.example:tools/claude-plugins.git' },
      ],
    ];
    cases.forEach(([source, expected], i) => {
      const dir = at(`source-${i}`);
      const r = rimthan(
        ['rollout', 'claude-code', '--url', ENDPOINT, '--out', dir, '--marketplace-source', source],
        work,
      );
      assert.equal(r.status, 0, r.stderr);
      const fragment = readJson(join(dir, 'managed-settings.d', 'rimthan.json')) as {
        extraKnownMarketplaces: { rimthan: { source: unknown } };
      };
      assert.deepEqual(fragment.extraKnownMarketplaces.rimthan.source, expected);
    });
  });

  test('--out refuses a folder with files in it; --force overwrites what rollout writes and nothing else', () => {
    const dir = at('shared');
    mkdirSync(join(dir, 'plugins', 'rimthan'), { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'ours\n');
    writeFileSync(join(dir, 'plugins', 'rimthan', '.mcp.json'), '{"stale": true}\n');
    const refused = rimthan(['rollout', 'claude-code', '--url', ENDPOINT, '--out', dir], work);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /is not empty: choose a new or empty folder, or pass --force/);
    assert.deepEqual(filesUnder(dir), ['notes.txt', 'plugins/rimthan/.mcp.json'], 'nothing was written');
    const forced = rimthan(['rollout', 'claude-code', '--url', ENDPOINT, '--out', dir, '--force'], work);
    assert.equal(forced.status, 0, forced.stderr);
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'ours\n');
    assert.equal(readJson(join(dir, 'plugins', 'rimthan', '.mcp.json'))['stale'], undefined);
    mkdirSync(at('empty'));
    assert.equal(rimthan(['rollout', 'codex', '--url', ENDPOINT, '--out', at('empty')], work).status, 0);
  });

  test('--url: https anywhere, http only on loopback, written in its normalised form', () => {
    const urls = [
      ['http://127.0.0.1:8765/mcp', 'http://127.0.0.1:8765/mcp'],
      ['http://localhost:8765/mcp', 'http://localhost:8765/mcp'],
      ['https://MCP.Example.org', 'https://mcp.example.org/'],
    ] as const;
    urls.forEach(([url, written], i) => {
      const dir = at(`url-${i}`);
      const r = rimthan(['rollout', 'codex', '--url', url, '--out', dir], work);
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(readToml(join(dir, 'requirements.toml')), {
        mcp_servers: { rimthan: { identity: { url: written } } },
      });
    });
    const refused = rimthan(['rollout', 'codex', '--url', 'http://mcp.example.org/mcp', '--out', at('plain')], work);
    assert.equal(refused.status, 1);
    assert.throws(() => statSync(at('plain')), { code: 'ENOENT' });
  });
});
