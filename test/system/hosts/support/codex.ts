/**
 * Runs the pinned Codex CLI the way a person's session would run: a scratch CODEX_HOME whose config.toml points a
 * custom Responses provider at the scripted model (with a bundled model's slug, so Codex behaves as it does for real
 * users: code mode, deferred MCP tools, sub-agents v2), Rimthan under `[mcp_servers.rimthan]` (stdio through a tap, or
 * Streamable HTTP with `bearer_token_env_var` through an HTTP tap), and `codex exec` in the scenario's repository with
 * the workspace-write sandbox and no approvals. Nothing of the host is simulated.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexBinary } from './host-bins.js';
import { hostSession } from './host-session.js';
import type { HostRun, HostRunOptions } from './host-session.js';
import { runHost } from './run-host.js';

/** A model of Codex's bundled catalog: Codex applies its metadata (tool modes, search, sub-agents) to our endpoint. */
export const CODEX_MODEL = 'gpt-6.1-sol';
const TOKEN_VARIABLE = 'RIMTHAN_MCP_TOKEN';

const toml = (value: string): string => JSON.stringify(value);

export async function runCodex(options: HostRunOptions): Promise<HostRun> {
  const binary = codexBinary();
  if (binary === undefined) throw new Error('@openai/codex is not installed (npm ci installs it)');
  const { scratch } = options;
  return hostSession(binary, 'openai-responses', options, (endpoint, reach) => {
    const codexHome = join(scratch.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const serverEntry =
      reach.kind === 'stdio'
        ? [
            `command = ${toml(reach.command)}`,
            `args = [${reach.args.map(toml).join(', ')}]`,
            `env = { XDG_STATE_HOME = ${toml(join(scratch.home, '.local', 'state'))} }`,
          ]
        : [`url = ${toml(reach.url)}`, `bearer_token_env_var = ${toml(TOKEN_VARIABLE)}`];
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        `model = ${toml(CODEX_MODEL)}`,
        'model_provider = "scripted"',
        'approval_policy = "never"',
        'sandbox_mode = "workspace-write"',
        ...(options.codex?.configLines ?? []),
        '',
        '[model_providers.scripted]',
        'name = "Scripted model"',
        `base_url = ${toml(`${endpoint}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_MODEL_KEY"',
        '',
        ...(options.codex?.withoutServer === true
          ? []
          : [
              '[mcp_servers.rimthan]',
              ...serverEntry,
              ...(options.approveTools === true ? ['default_tools_approval_mode = "approve"'] : []),
              '',
            ]),
      ].join('\n'),
    );
    return runHost(binary, ['exec', options.prompt], {
      cwd: scratch.repo,
      env: {
        HOME: scratch.home,
        CODEX_HOME: codexHome,
        SCRIPTED_MODEL_KEY: 'scripted-model',
        ...(reach.kind === 'http' ? { [TOKEN_VARIABLE]: reach.token } : {}),
      },
      timeoutMs: options.timeoutMs ?? 300_000,
    });
  });
}
