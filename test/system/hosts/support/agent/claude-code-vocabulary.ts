/**
 * Claude Code's tools as the scripted model uses them: MCP tools named `mcp__<server>__<tool>` and loaded through
 * ToolSearch (Claude Code defers them), Write and Read with absolute paths (Read answers in `cat -n` form), Bash for
 * `sha256sum`, and the Agent tool for validator subagents, run in the foreground so each answer comes back as the
 * call's result.
 */
import type { ModelCall, Transcript } from '../transcript.js';
import { guidedToolFromName, parseSha256sum, shellQuote } from './host-vocabulary.js';
import type {
  CallEvent,
  GuidedTool,
  HostDeclaration,
  HostVocabulary,
  ResultEvent,
  ValidatorJob,
  ValidatorProgress,
} from './host-vocabulary.js';
import { GUIDED_TOOLS } from './host-vocabulary.js';

const SERVER = 'rimthan';

export interface ClaudeCodeOptions {
  readonly declaration: HostDeclaration;
  /** The agent type validators run as (a read-only built-in unless the session has an agent file). */
  readonly validatorAgentType: string;
}

function mcpName(tool: GuidedTool): string {
  return `mcp__${SERVER}__rimthan_${tool}`;
}

function relative(root: string, file: unknown): string | undefined {
  if (typeof file !== 'string' || !file.startsWith(`${root}/`)) return undefined;
  return file.slice(root.length + 1);
}

export function claudeCodeVocabulary(options: ClaudeCodeOptions): HostVocabulary {
  return {
    declaration: options.declaration,
    guidedToolName(t, tool) {
      const name = mcpName(tool);
      return t.tools.some((offered) => offered.name === name) ? name : undefined;
    },
    guidedToolOf: guidedToolFromName,
    awaitTools(t: Transcript): ModelCall {
      // Claude Code lists connected MCP tools by name as deferred; while a server is still connecting it says so,
      // and a keyword search waits for it.
      const listed = GUIDED_TOOLS.every((tool) => t.system.includes(mcpName(tool)));
      return {
        name: 'ToolSearch',
        args: listed
          ? { query: `select:${GUIDED_TOOLS.map(mcpName).join(',')}`, max_results: GUIDED_TOOLS.length }
          : { query: '+rimthan workflow', max_results: GUIDED_TOOLS.length },
      };
    },
    workspaceRoot(t) {
      const root = /Primary working directory: (\S+)/.exec(t.system)?.[1];
      if (root === undefined) throw new Error('Claude Code did not say its working directory');
      return root;
    },
    succeeded: (_call, result) => !result.isError,
    writeFile(root, path, content) {
      return { name: 'Write', args: { file_path: `${root}/${path}`, content } };
    },
    writtenFile(root, call: CallEvent) {
      if (call.name !== 'Write') return undefined;
      const path = relative(root, call.args['file_path']);
      const content = call.args['content'];
      return path === undefined || typeof content !== 'string' ? undefined : { path, content };
    },
    readFile(root, path) {
      return { name: 'Read', args: { file_path: `${root}/${path}` } };
    },
    readPath(root, call) {
      return call.name === 'Read' ? relative(root, call.args['file_path']) : undefined;
    },
    fileText(result: ResultEvent) {
      // `cat -n`: a right-aligned line number, a tab, the line. Anything after the numbered lines is the host's.
      const lines: string[] = [];
      for (const line of result.text.split('\n')) {
        const m = /^\s*\d+\t(.*)$/.exec(line);
        if (m === null) {
          if (lines.length > 0) break;
          continue;
        }
        lines.push(m[1] ?? '');
      }
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    },
    digest(_root, paths) {
      return {
        name: 'Bash',
        args: { command: `sha256sum ${paths.map(shellQuote).join(' ')}`, description: 'Digest the files to attest' },
      };
    },
    digests(call, result) {
      if (call.name !== 'Bash' || !String(call.args['command']).startsWith('sha256sum ')) return undefined;
      return parseSha256sum(result.text);
    },
    validatorProgress(t, since, jobs: readonly ValidatorJob[]): ValidatorProgress {
      const answers = new Map<string, string>();
      const spawned = new Set<string>();
      const results = new Map<string, ResultEvent>();
      for (const e of t.events.slice(since)) if (e.kind === 'result') results.set(e.id, e);
      for (const e of t.events.slice(since)) {
        if (e.kind !== 'call' || e.name !== 'Agent') continue;
        const job = jobs.find((j) => e.args['prompt'] === j.prompt);
        if (job === undefined) continue;
        spawned.add(job.validatorId);
        const result = results.get(e.id);
        if (result !== undefined) answers.set(job.validatorId, result.text);
      }
      const missing = jobs.filter((j) => !spawned.has(j.validatorId));
      if (missing.length > 0)
        return {
          kind: 'next',
          calls: missing.map((job) => ({
            name: 'Agent',
            args: {
              description: `Validate ${job.validatorId}`,
              prompt: job.prompt,
              subagent_type: options.validatorAgentType,
              run_in_background: false,
            },
          })),
        };
      if (answers.size < jobs.length)
        throw new Error('a validator subagent was spawned but its answer never came back');
      return { kind: 'done', answers };
    },
  };
}
