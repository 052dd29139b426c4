/**
 * `rimthan rollout claude-code`: a Claude Code plugin marketplace for an organisation's Rimthan endpoint. The folder
 * holds the marketplace file, one plugin (its manifest, `.mcp.json` naming the remote server, a README, and the
 * pinned claude-code adapter's host assets in the plugin layout) and the managed-settings fragment that declares the
 * marketplace, enables the plugin and allows its server. The host assets are the files the server itself offers for
 * project-local delivery (pinned-assets.ts), byte for byte; no token is ever written: the `.mcp.json` header reads it
 * from the participant's environment, or the host signs in with OAuth.
 */
import { isAbsolute } from 'node:path';
import type { PinnedAdapterAssets } from '../../guided/index.js';
import type { HostAssetKind, Release } from '../../registry/index.js';
import { UsageError } from '../errors.js';
import type { RolloutAuth } from './options.js';
import type { PackageFacts } from '../../package/index.js';
import type { RolloutFile } from './write.js';

/** The plugin's and the marketplace's name; the plugin id is `rimthan@rimthan`, its server `plugin:rimthan:rimthan`. */
export const PLUGIN_NAME = 'rimthan';
export const MARKETPLACE_NAME = 'rimthan';
/** The MCP server's name inside the plugin's `.mcp.json`. */
export const SERVER_NAME = 'rimthan';
/** Where the managed-settings fragment goes under `--out`, mirroring its place under /etc/claude-code. */
export const MANAGED_FRAGMENT_PATH = 'managed-settings.d/rimthan.json';
const PLUGIN_DIR = `plugins/${PLUGIN_NAME}`;

/** Where Claude Code reads a marketplace from: a folder, a GitHub repository or a Git URL. */
export type MarketplaceSource =
  | { readonly source: 'directory'; readonly path: string }
  | { readonly source: 'github'; readonly repo: string }
  | { readonly source: 'git'; readonly url: string };

/**
 * `--marketplace-source`: an absolute folder path (where the folder will be on participants' machines), `OWNER/REPO`
 * (GitHub) or a Git URL (`https://…` or `git@host:path`); by default the folder written (`defaultPath`).
 */
export function marketplaceSource(value: string | undefined, defaultPath: string, topic: string): MarketplaceSource {
  if (value === undefined) return { source: 'directory', path: defaultPath };
  if (isAbsolute(value)) return { source: 'directory', path: value };
  if (/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(value)) return { source: 'github', repo: value };
  if (/^https:\/\/[^\s@]+$/.test(value) || /^git@[^\s:]+:\S+$/.test(value)) return { source: 'git', url: value };
  throw new UsageError(
    '--marketplace-source must be an absolute folder path, OWNER/REPO (GitHub) or a Git URL (https://… or git@host:path)',
    topic,
  );
}

/** Where each kind of host asset lives in a Claude Code plugin. */
function pluginPath(kind: HostAssetKind, id: string): string {
  switch (kind) {
    case 'prompt':
      return `commands/${id}.md`;
    case 'skill':
      return `skills/${id}/SKILL.md`;
    case 'subagent':
      return `agents/${id}.md`;
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** What a plugin host-asset file is, for the summary and the README. */
interface PluginAsset {
  readonly path: string;
  readonly content: string;
  readonly kind: HostAssetKind;
  readonly id: string;
  readonly ref: string;
  readonly sha256: string;
  readonly projectPath: string;
}

function pluginAssets(pinned: readonly PinnedAdapterAssets[]): PluginAsset[] {
  const byPath = new Map<string, PluginAsset>();
  for (const adapter of pinned) {
    for (const { kind, asset, file } of adapter.assets) {
      const path = pluginPath(kind, asset.id);
      // Two workflows naming different versions of one asset id: the first (by workflow id) keeps the path.
      if (byPath.has(path)) continue;
      byPath.set(path, {
        path,
        content: file.content,
        kind,
        id: asset.id,
        ref: `${asset.id}@${asset.version}`,
        sha256: file.sha256,
        projectPath: file.path,
      });
    }
  }
  return [...byPath.values()];
}

function mcpEntry(url: string, auth: RolloutAuth): Record<string, unknown> {
  if (auth.kind === 'bearer') {
    return { type: 'http', url, headers: { Authorization: `Bearer \${${auth.tokenEnv}}` } };
  }
  const oauth = {
    ...(auth.clientId === undefined ? {} : { clientId: auth.clientId }),
    ...(auth.callbackPort === undefined ? {} : { callbackPort: auth.callbackPort }),
  };
  return { type: 'http', url, ...(Object.keys(oauth).length === 0 ? {} : { oauth }) };
}

function authParagraph(auth: RolloutAuth): string {
  if (auth.kind === 'bearer') {
    return [
      `Each person exports the bearer token the operator issued to them as \`${auth.tokenEnv}\` before starting`,
      `Claude Code (for example in their shell profile). The plugin's \`.mcp.json\` sends it as`,
      `\`Authorization: Bearer \${${auth.tokenEnv}}\`; Claude Code expands the variable when it loads the plugin. No token is`,
      'stored in this plugin.',
    ].join('\n');
  }
  return [
    "The server is an OAuth 2.1 resource server: Claude Code finds the authorization server through the endpoint's",
    "protected-resource metadata and signs each person in with the organisation's identity provider the first time",
    'the server is used (`/mcp`, then authenticate). No token is stored in this plugin.',
  ].join('\n');
}

/** How Claude Code shows a plugin asset: `/rimthan:<id>` for a command, `rimthan:<id>` for a skill or subagent. */
function componentName(asset: PluginAsset): string {
  const words = { prompt: 'the command', skill: 'the skill', subagent: 'the subagent' } as const;
  return `${words[asset.kind]} \`${asset.kind === 'prompt' ? '/' : ''}${PLUGIN_NAME}:${asset.id}\``;
}

/** The marketplace source as `claude plugin marketplace add` takes it. */
function sourceArgument(source: MarketplaceSource): string {
  if (source.source === 'directory') return source.path;
  return source.source === 'github' ? source.repo : source.url;
}

function readme(
  url: string,
  auth: RolloutAuth,
  marketplace: MarketplaceSource,
  release: Release,
  pinned: readonly PinnedAdapterAssets[],
  assets: readonly PluginAsset[],
  facts: PackageFacts,
): string {
  const rows = assets.map((a) => `| \`${a.path}\` | ${a.kind} \`${a.ref}\` | \`${a.projectPath}\` | \`${a.sha256}\` |`);
  const pins = pinned.map(
    (p) => `\`${p.workflow.id}@${p.workflow.version}\` (adapter \`${p.adapter.id}@${p.adapter.version}\`)`,
  );
  return [
    '# Rimthan for Claude Code',
    '',
    `This plugin connects Claude Code to the organisation's Rimthan workflow server at <${url}> as the remote MCP`,
    `server \`${SERVER_NAME}\` (shown as \`plugin:${PLUGIN_NAME}:${SERVER_NAME}\` in \`claude mcp list\`), and brings the host assets the`,
    'guided workflows deliver to Claude Code: the validator subagent, the skill and the start command.',
    '',
    '## Installing',
    '',
    'The organisation enables it for everyone through managed settings (`managed-settings.d/rimthan.json` beside the',
    'marketplace, copied to `/etc/claude-code/managed-settings.d/`). One person can install it by hand:',
    '',
    '```sh',
    `claude plugin marketplace add ${sourceArgument(marketplace)}`,
    `claude plugin install ${PLUGIN_NAME}@${MARKETPLACE_NAME}`,
    '```',
    '',
    `Claude Code names the plugin's parts after it: ${assets.map(componentName).join(', ')}.`,
    '',
    '## Signing in',
    '',
    authParagraph(auth),
    '',
    '## Host assets',
    '',
    `They come from release \`${release.release}\` (manifest \`${release.manifest_sha256}\`), the active release`,
    `packaged in ${facts.name} ${facts.version}, for ${pins.join(', ')}. Each file is, byte for byte, the file`,
    'the server offers for project-local delivery at the project path shown; a session that uses the plugin copy',
    'attests the asset as `dynamic-context` with the asset digest from the step payload.',
    '',
    '| plugin file | asset | project-local path | sha256 of the file |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    `Generated by \`rimthan rollout claude-code\` (${facts.name} ${facts.version}). Do not edit these files: run the`,
    'command again, for a new endpoint or after upgrading the package.',
    '',
  ].join('\n');
}

/** Everything `rimthan rollout claude-code` writes, in the order it prints them. */
export function claudeCodeFiles(opts: {
  readonly url: string;
  readonly auth: RolloutAuth;
  readonly release: Release;
  readonly pinned: readonly PinnedAdapterAssets[];
  readonly marketplace: MarketplaceSource;
  readonly facts: PackageFacts;
}): RolloutFile[] {
  const { url, auth, release, pinned, facts } = opts;
  const host = new URL(url).host;
  const assets = pluginAssets(pinned);
  const description = `The Rimthan workflow server at ${url} and the host assets of release ${release.release}`;
  const fragment = {
    extraKnownMarketplaces: { [MARKETPLACE_NAME]: { source: opts.marketplace } },
    enabledPlugins: { [`${PLUGIN_NAME}@${MARKETPLACE_NAME}`]: true },
    allowedMcpServers: [{ serverUrl: url }],
  };
  return [
    {
      path: '.claude-plugin/marketplace.json',
      content: json({
        name: MARKETPLACE_NAME,
        owner: { name: host },
        description: `Rimthan for the people who use ${host}`,
        plugins: [
          { name: PLUGIN_NAME, source: `./${PLUGIN_DIR}`, description, version: facts.version, license: facts.license },
        ],
      }),
      note: `marketplace "${MARKETPLACE_NAME}" listing the plugin`,
    },
    {
      path: `${PLUGIN_DIR}/.claude-plugin/plugin.json`,
      content: json({
        name: PLUGIN_NAME,
        version: facts.version,
        description,
        author: { name: host },
        license: facts.license,
        keywords: ['rimthan', 'mcp', 'workflow'],
      }),
      note: `plugin "${PLUGIN_NAME}" ${facts.version}`,
    },
    {
      path: `${PLUGIN_DIR}/.mcp.json`,
      content: json({ mcpServers: { [SERVER_NAME]: mcpEntry(url, auth) } }),
      note:
        auth.kind === 'bearer'
          ? `server "${SERVER_NAME}", Authorization: Bearer \${${auth.tokenEnv}}`
          : `server "${SERVER_NAME}", OAuth sign-in by Claude Code`,
    },
    {
      path: `${PLUGIN_DIR}/README.md`,
      content: readme(url, auth, opts.marketplace, release, pinned, assets, facts),
      note: `what the plugin holds; its host assets come from release ${release.release}`,
    },
    ...assets.map((a) => ({
      path: `${PLUGIN_DIR}/${a.path}`,
      content: a.content,
      note: `${a.kind} ${a.ref} from release ${release.release}`,
    })),
    {
      path: MANAGED_FRAGMENT_PATH,
      content: json(fragment),
      note: 'managed settings: copy to /etc/claude-code/managed-settings.d/rimthan.json',
    },
  ];
}
