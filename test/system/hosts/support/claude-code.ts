/**
 * Runs the pinned Claude Code CLI the way a person's session would run: Rimthan registered with `claude mcp add`
 * (stdio through a tap, or Streamable HTTP with a bearer token), the model endpoint pointed at the scripted model,
 * `claude -p` in the scenario's repository with edits accepted and only the tools the workflow needs allowed
 * (Rimthan's and `sha256sum`). Nothing of the host is simulated: its MCP client, deferred tools, permissions, file
 * tools and subagents are its own.
 */
import { join } from 'node:path';
import { claudeCodeBinary } from './host-bins.js';
import { hostSession } from './host-session.js';
import type { HostRun, HostRunOptions } from './host-session.js';
import { runHost } from './run-host.js';

export async function runClaudeCode(options: HostRunOptions): Promise<HostRun> {
  const binary = claudeCodeBinary();
  if (binary === undefined) throw new Error('@anthropic-ai/claude-code is not installed (npm ci installs it)');
  const { scratch } = options;
  const timeoutMs = options.timeoutMs ?? 300_000;
  return hostSession(binary, 'anthropic-messages', options, async (endpoint, reach) => {
    const env: Record<string, string> = {
      HOME: scratch.home,
      XDG_STATE_HOME: join(scratch.home, '.local', 'state'),
      ANTHROPIC_BASE_URL: endpoint,
      ANTHROPIC_API_KEY: 'sk-ant-scripted-model',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    const cli = (args: readonly string[]) => runHost(binary, args, { cwd: scratch.repo, env, timeoutMs });
    const added =
      reach.kind === 'stdio'
        ? await cli(['mcp', 'add', 'rimthan', '--', reach.command, ...reach.args])
        : await cli([
            'mcp',
            'add',
            '--transport',
            'http',
            'rimthan',
            reach.url,
            '--header',
            `Authorization: Bearer ${reach.token}`,
          ]);
    if (added.status !== 0) throw new Error(`claude mcp add failed: ${added.stderr}${added.stdout}`);
    return cli([
      '-p',
      options.prompt,
      '--output-format',
      'json',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'mcp__rimthan,Bash(sha256sum:*)',
    ]);
  });
}
