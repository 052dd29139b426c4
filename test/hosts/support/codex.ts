/**
 * Runs the pinned Codex CLI the way a person's session would run: a scratch CODEX_HOME whose config.toml points a
 * custom Responses provider at the scripted model (with a bundled model's slug, so Codex behaves as it does for real
 * users: code mode, deferred MCP tools, sub-agents v2), Rimthan under `[mcp_servers.rimthan]` (stdio through a tap, or
 * Streamable HTTP with `bearer_token_env_var` through an HTTP tap), and `codex exec` in the scenario's repository with
 * the workspace-write sandbox and no approvals. Nothing of the host is simulated.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAIN } from '../../support/serve-process.js';
import { runHost } from './run-host.js';
import type { HostRun, HostRunOptions } from './claude-code.js';
import { codexBinary } from './host-bins.js';
import { startHttpTap } from './http-tap.js';
import type { HttpTap } from './http-tap.js';
import { startModelEndpoint } from './model-endpoint.js';
import { readTap, TAP_MAIN } from './tap-log.js';

/** A model of Codex's bundled catalog: Codex applies its metadata (tool modes, search, sub-agents) to our endpoint. */
export const CODEX_MODEL = 'gpt-6.1-sol';
const TOKEN_VARIABLE = 'RIMTHAN_MCP_TOKEN';

const toml = (value: string): string => JSON.stringify(value);

export async function runCodex(options: HostRunOptions): Promise<HostRun> {
  const binary = codexBinary();
  if (binary === undefined) throw new Error('@openai/codex is not installed (npm ci installs it)');
  const { scratch } = options;
  const endpoint = await startModelEndpoint('openai-responses', options.model, { maxTurns: options.maxTurns });
  const codexHome = join(scratch.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  for (const [path, content] of Object.entries(options.homeFiles ?? {})) {
    mkdirSync(dirname(join(scratch.home, path)), { recursive: true });
    writeFileSync(join(scratch.home, path), content);
  }
  const tapLog = join(scratch.root, 'stdio-tap.jsonl');
  let httpTap: HttpTap | undefined;
  try {
    const server = options.server;
    if (server.kind === 'http') httpTap = await startHttpTap(server.url);
    const serverEntry =
      server.kind === 'stdio'
        ? [
            `command = ${toml(process.execPath)}`,
            `args = [${[TAP_MAIN, tapLog, '--', process.execPath, server.main ?? MAIN, 'serve', ...server.args].map(toml).join(', ')}]`,
            `env = { XDG_STATE_HOME = ${toml(join(scratch.home, '.local', 'state'))} }`,
          ]
        : [`url = ${toml(httpTap?.url ?? server.url)}`, `bearer_token_env_var = ${toml(TOKEN_VARIABLE)}`];
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        `model = ${toml(CODEX_MODEL)}`,
        'model_provider = "scripted"',
        'approval_policy = "never"',
        'sandbox_mode = "workspace-write"',
        '',
        '[model_providers.scripted]',
        'name = "Scripted model"',
        `base_url = ${toml(`${endpoint.url}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_MODEL_KEY"',
        '',
        '[mcp_servers.rimthan]',
        ...serverEntry,
        ...(options.approveTools === true ? ['default_tools_approval_mode = "approve"'] : []),
        '',
      ].join('\n'),
    );
    const env: Record<string, string> = {
      HOME: scratch.home,
      CODEX_HOME: codexHome,
      SCRIPTED_MODEL_KEY: 'scripted-model',
      ...(server.kind === 'http' ? { [TOKEN_VARIABLE]: server.token } : {}),
    };
    const started = performance.now();
    const run = await runHost(binary, ['exec', options.prompt], {
      cwd: scratch.repo,
      env,
      timeoutMs: options.timeoutMs ?? 300_000,
    });
    return {
      host: 'codex',
      version: binary.version,
      requests: endpoint.requests,
      failures: endpoint.failures,
      exitCode: run.status,
      stdout: run.stdout,
      stderr: run.stderr,
      tap: httpTap === undefined ? readTap(tapLog) : [...httpTap.entries],
      elapsedMs: performance.now() - started,
    };
  } finally {
    await endpoint.close();
    await httpTap?.close();
  }
}
