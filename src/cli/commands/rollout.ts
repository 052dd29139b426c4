/**
 * `rimthan rollout claude-code|codex`: the files an organisation hands its people's coding agents so they connect to
 * its Rimthan endpoint: for Claude Code a plugin marketplace (the plugin with the remote server and the packaged
 * release's host assets) and the managed-settings fragment enabling it; for Codex the `config.toml` server table and
 * the `requirements.toml` allowlist entry. Prints what it wrote on stdout. Never writes a token.
 */
import { resolve } from 'node:path';
import { pinnedHostAssetFiles } from '../../guided/index.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import type { CliIo } from '../io.js';
import {
  claudeCodeFiles,
  MANAGED_FRAGMENT_PATH,
  MARKETPLACE_NAME,
  marketplaceSource,
  PLUGIN_NAME,
} from '../rollout/claude-code.js';
import { CODEX_SERVER_NAME, codexFiles } from '../rollout/codex.js';
import { rolloutSettings } from '../rollout/options.js';
import { packageFacts } from '../../package/index.js';
import { activePackagedRelease } from '../rollout/release.js';
import { summaryLines, writeRolloutFiles } from '../rollout/write.js';
import { ROLLOUT_CLAUDE_CODE_OPTIONS, ROLLOUT_CODEX_OPTIONS } from './rollout-options.js';

/** `rollout claude-code --url URL --out DIR [--token-env NAME | --oauth …] [--marketplace-source S] [--force]`. */
export async function rolloutClaudeCode(argv: string[], io: CliIo): Promise<void> {
  const topic = 'rollout claude-code';
  const parsed = parseCommand(argv, ROLLOUT_CLAUDE_CODE_OPTIONS, topic);
  positionals(parsed, 0, 'no arguments: rimthan rollout claude-code --url URL --out DIR', topic);
  const settings = rolloutSettings(parsed, topic, ['oauth-client-id', 'oauth-callback-port']);
  const source = marketplaceSource(stringOption(parsed, 'marketplace-source'), resolve(io.cwd, settings.out), topic);
  const release = await activePackagedRelease(io);
  const files = claudeCodeFiles({
    url: settings.url.href,
    auth: settings.auth,
    release,
    pinned: pinnedHostAssetFiles(release, 'claude-code'),
    marketplace: source,
    facts: packageFacts(),
  });
  const folder = writeRolloutFiles(files, settings.out, settings.force, io);
  io.out(
    [
      `wrote the Claude Code plugin for ${settings.url.href} to ${folder} (host assets from release ${release.release}):`,
      ...summaryLines(files),
      '',
      'Next: copy managed-settings.d/rimthan.json to /etc/claude-code/managed-settings.d/ on every machine (or merge',
      `its keys into your managed settings), with the marketplace available at the source it names. By hand instead:`,
      `  claude plugin marketplace add ${folder} && claude plugin install ${PLUGIN_NAME}@${MARKETPLACE_NAME}`,
      ...(settings.auth.kind === 'bearer'
        ? [`Each person exports their token as ${settings.auth.tokenEnv} before starting Claude Code.`]
        : []),
      `See docs/harness/rollout.md (fragment: ${MANAGED_FRAGMENT_PATH}).`,
    ].join('\n'),
  );
}

/** `rollout codex --url URL --out DIR [--token-env NAME | --oauth [--oauth-client-id ID]] [--force]`. */
export function rolloutCodex(argv: string[], io: CliIo): Promise<void> {
  return Promise.resolve().then(() => codex(argv, io));
}

function codex(argv: string[], io: CliIo): void {
  const topic = 'rollout codex';
  const parsed = parseCommand(argv, ROLLOUT_CODEX_OPTIONS, topic);
  positionals(parsed, 0, 'no arguments: rimthan rollout codex --url URL --out DIR', topic);
  const settings = rolloutSettings(parsed, topic, ['oauth-client-id']);
  const files = codexFiles({ url: settings.url.href, auth: settings.auth, facts: packageFacts() });
  const folder = writeRolloutFiles(files, settings.out, settings.force, io);
  io.out(
    [
      `wrote the Codex configuration for ${settings.url.href} to ${folder}:`,
      ...summaryLines(files),
      '',
      `Next: merge config.toml into each person's ~/.codex/config.toml and requirements.toml into`,
      '/etc/codex/requirements.toml on every machine.',
      settings.auth.kind === 'bearer'
        ? `Each person exports their token as ${settings.auth.tokenEnv} before starting Codex.`
        : `Each person signs in once: codex mcp login ${CODEX_SERVER_NAME}`,
      'See docs/harness/rollout.md.',
    ].join('\n'),
  );
}
