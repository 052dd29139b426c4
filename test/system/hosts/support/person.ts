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

/** Claude Code as it really is in `claude -p`: MCP tools and resources, the Agent tool, no project-local writes. */
export const CLAUDE_CODE_DECLARATION: HostDeclaration = {
  harness: 'claude-code',
  adapter: { id: 'claude-code-host', version: '1.1.0' },
  host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'],
  validator_capabilities: ['workspace.read', 'web.read'],
};

/** Codex as it really is in `codex exec`: MCP tools and resources, spawn_agent subagents. */
export const CODEX_DECLARATION: HostDeclaration = {
  harness: 'codex',
  adapter: { id: 'codex-host', version: '1.2.0' },
  host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'],
  validator_capabilities: ['workspace.read', 'web.read'],
};
