/**
 * Each pinned host as the host tests and the hosts bench use it: its binary, how it runs, how its model does things
 * (the vocabulary), and how the runs profile's tools are named and loaded on it.
 */
import type { ModelCall, Transcript } from './transcript.js';
import { claudeCodeVocabulary } from './agent/claude-code-vocabulary.js';
import { codexVocabulary } from './agent/codex-vocabulary.js';
import type { HostVocabulary } from './agent/host-vocabulary.js';
import { runClaudeCode } from './claude-code.js';
import type { HostRun, HostRunOptions } from './host-session.js';
import { runCodex } from './codex.js';
import { claudeCodeBinary, codexBinary } from './host-bins.js';
import type { HostBinary } from './host-bins.js';
import { TOOL_SEARCH } from './openai-responses.js';
import { hostDeclaration } from './person.js';
import { pinnedAdapter, servedRelease } from './served-release.js';

export interface HostProfile {
  readonly name: 'claude-code' | 'codex';
  binary(): HostBinary | undefined;
  run(options: HostRunOptions): Promise<HostRun>;
  /**
   * How this host's model does things, declaring `adapter` at start (default: the adapter this build's active release
   * pins for research-decision on this host).
   */
  vocabulary(adapter?: AdapterRef): HostVocabulary;
  /** The prefix of the runs profile's tools on this host (the server is registered as `rimthan`). */
  readonly runsToolPrefix: string;
  /** How the model loads the runs profile's tools. */
  awaitRunsTools(t: Transcript): ModelCall;
}

export interface AdapterRef {
  readonly id: string;
  readonly version: string;
}

/** The adapter this build's active release pins for research-decision on `harness`. */
function activeResearchAdapter(harness: 'claude-code' | 'codex'): AdapterRef {
  return pinnedAdapter(servedRelease(), 'research-decision', harness);
}

const RUN_TOOLS = ['workflow_definition_list', 'workflow_run_start', 'workflow_run_get', 'workflow_run_resume'];

export const CLAUDE_CODE: HostProfile = {
  name: 'claude-code',
  binary: claudeCodeBinary,
  run: runClaudeCode,
  vocabulary: (adapter) =>
    claudeCodeVocabulary({
      declaration: hostDeclaration('claude-code', adapter ?? activeResearchAdapter('claude-code')),
      validatorAgentType: 'general-purpose',
    }),
  runsToolPrefix: 'mcp__rimthan__',
  awaitRunsTools: (t) => ({
    name: 'ToolSearch',
    args: t.system.includes('mcp__rimthan__workflow_run_start')
      ? { query: `select:${RUN_TOOLS.map((x) => `mcp__rimthan__${x}`).join(',')}`, max_results: RUN_TOOLS.length }
      : { query: '+rimthan workflow_run', max_results: 7 },
  }),
};

export const CODEX: HostProfile = {
  name: 'codex',
  binary: codexBinary,
  run: runCodex,
  vocabulary: (adapter) =>
    codexVocabulary({ declaration: hostDeclaration('codex', adapter ?? activeResearchAdapter('codex')) }),
  runsToolPrefix: 'mcp__rimthan.',
  awaitRunsTools: (t) =>
    /Deferred tool namespaces:[^<]*\bmcp__rimthan\b/.test(t.system)
      ? { name: TOOL_SEARCH, args: { query: 'workflow run definition list start get resume' } }
      : { name: 'clock.sleep', args: { duration_ms: 500 } },
};
