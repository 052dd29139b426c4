/**
 * What the person types to start a host session, and the host declaration each host's model makes. `claude -p` and
 * `codex exec` run without a person at the keyboard, so the person states up front everything the workflow will ask
 * (the objective, the interview answers, the route), confirming each, as they would say it in a session.
 */
import type { JsonValue } from '../../../../src/core/index.js';
import type { Scenario } from '../scenarios/billing-queue.js';
import type { HostDeclaration } from './agent/host-vocabulary.js';

function spoken(value: JsonValue): string {
  if (Array.isArray(value)) return value.map((v) => spoken(v)).join('; ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function personPrompt(scenario: Scenario): string {
  return [
    `Use the Rimthan research workflow to help me with this: ${scenario.objective}`,
    '',
    'I confirm the objective. For the interview, here is what I can tell you, and I confirm each of these:',
    ...Object.entries(scenario.interview).map(([field, value]) => `- ${field}: ${spoken(value)}`),
    '',
    `When the workflow asks how to research it, I choose ${scenario.route}.`,
    'I am not at the keyboard: go through the whole workflow and tell me when the decision is recorded.',
  ].join('\n');
}

/**
 * What Claude Code really has in `claude -p`: MCP tools and resources, the Agent tool, no project-local writes; its
 * subagents read the workspace, the web and (Bash limited to read-only git) the repository history.
 */
const CLAUDE_CODE_CAPABILITIES = {
  host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'],
  validator_capabilities: ['workspace.read', 'web.read', 'git.read'],
};

/** What Codex really has in `codex exec`: MCP tools and resources, spawn_agent subagents with a read-only shell. */
const CODEX_CAPABILITIES = {
  host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'],
  validator_capabilities: ['workspace.read', 'web.read', 'git.read'],
};

/**
 * The declaration a host's model makes at start: its harness, the adapter the served workflow pins for it (read, as
 * the adapter's own text tells a model, from the release it talks to), and only the capabilities it really has.
 */
export function hostDeclaration(
  harness: 'claude-code' | 'codex',
  adapter: { readonly id: string; readonly version: string },
): HostDeclaration {
  const capabilities = harness === 'claude-code' ? CLAUDE_CODE_CAPABILITIES : CODEX_CAPABILITIES;
  return { harness, adapter: { id: adapter.id, version: adapter.version }, ...capabilities };
}
