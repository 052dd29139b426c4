/**
 * Runs the pinned Claude Code CLI the way a person's session would run: Rimthan registered with `claude mcp add`
 * (stdio through a tap, or Streamable HTTP with a bearer token), the model endpoint pointed at the scripted model,
 * `claude -p` in the scenario's repository with edits accepted and only the tools the workflow needs allowed
 * (Rimthan's and `sha256sum`). Nothing of the host is simulated: its MCP client, deferred tools, permissions, file
 * tools and subagents are its own.
 */
import { join } from 'node:path';
import { MAIN } from '../../support/serve-process.js';
import { claudeCodeBinary } from './host-bins.js';
import { runHost } from './run-host.js';
import { startHttpTap } from './http-tap.js';
import type { HttpTap } from './http-tap.js';
import { startModelEndpoint } from './model-endpoint.js';
import type { RecordedRequest, ScriptedModel } from './model-endpoint.js';
import type { Scratch } from './scratch.js';
import { readTap, TAP_MAIN } from './tap-log.js';
import type { TapEntry } from './tap-log.js';

export type RimthanRegistration =
  | {
      readonly kind: 'stdio';
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      /** The `rimthan` executable to serve with (default: this build's); the hosts bench passes a baseline build. */
      readonly main?: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly token: string };

export interface HostRunOptions {
  readonly scratch: Scratch;
  readonly model: ScriptedModel;
  readonly server: RimthanRegistration;
  readonly prompt: string;
  readonly maxTurns: number;
  readonly timeoutMs?: number;
  /**
   * The person approved every Rimthan tool up front (Codex asks before tools that are not read-only, and `codex exec`
   * cannot ask: the runs profile's start and resume need this; Claude Code's allowed tools already cover them).
   */
  readonly approveTools?: boolean;
  /** Files to put in the scratch HOME before the host starts (HOME-relative path → content), e.g. Codex agent roles. */
  readonly homeFiles?: Readonly<Record<string, string>>;
}

export interface HostRun {
  readonly host: string;
  readonly version: string;
  readonly requests: readonly RecordedRequest[];
  readonly failures: readonly string[];
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The JSON-RPC messages between the host and Rimthan (through a stdio or HTTP tap). */
  readonly tap: readonly TapEntry[];
  readonly elapsedMs: number;
}

export async function runClaudeCode(options: HostRunOptions): Promise<HostRun> {
  const binary = claudeCodeBinary();
  if (binary === undefined) throw new Error('@anthropic-ai/claude-code is not installed (npm ci installs it)');
  const { scratch } = options;
  const endpoint = await startModelEndpoint('anthropic-messages', options.model, { maxTurns: options.maxTurns });
  const env: Record<string, string> = {
    HOME: scratch.home,
    XDG_STATE_HOME: join(scratch.home, '.local', 'state'),
    ANTHROPIC_BASE_URL: endpoint.url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted-model',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const tapLog = join(scratch.root, 'stdio-tap.jsonl');
  const timeoutMs = options.timeoutMs ?? 300_000;
  const cli = (args: readonly string[]) => runHost(binary, args, { cwd: scratch.repo, env, timeoutMs });
  let httpTap: HttpTap | undefined;
  try {
    const server = options.server;
    if (server.kind === 'http') httpTap = await startHttpTap(server.url);
    const added =
      server.kind === 'stdio'
        ? await cli([
            'mcp',
            'add',
            ...Object.entries(server.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
            'rimthan',
            '--',
            process.execPath,
            TAP_MAIN,
            tapLog,
            '--',
            process.execPath,
            server.main ?? MAIN,
            'serve',
            ...server.args,
          ])
        : await cli([
            'mcp',
            'add',
            '--transport',
            'http',
            'rimthan',
            httpTap?.url ?? server.url,
            '--header',
            `Authorization: Bearer ${server.token}`,
          ]);
    if (added.status !== 0) throw new Error(`claude mcp add failed: ${added.stderr}${added.stdout}`);
    const started = performance.now();
    const run = await cli([
      '-p',
      options.prompt,
      '--output-format',
      'json',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'mcp__rimthan,Bash(sha256sum:*)',
    ]);
    return {
      host: 'claude-code',
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
