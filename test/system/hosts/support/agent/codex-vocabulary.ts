/**
 * Codex's tools as the scripted model uses them with the bundled model metadata (code mode): MCP tools are deferred
 * until a client tool search loads the `mcp__rimthan` namespace, then called as namespaced functions (Codex frames
 * their output as `Wall time: …\nOutput:\n<json>`); the shell is reached from the `exec` JavaScript tool
 * (`tools.exec_command`), so files are written with a heredoc, read with `cat` and digested with `sha256sum`; a
 * validator is a sub-agent spawned with `collaboration.spawn_agent` and `fork_turns: "none"` (none of the parent's
 * history), whose final answer arrives as an agent message after `collaboration.wait_agent`.
 */
import { CUSTOM, TOOL_SEARCH } from '../openai-responses.js';
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

const NAMESPACE = 'mcp__rimthan';
const EXEC = `${CUSTOM}exec`;
const HEREDOC = 'RIMTHAN_EOF';

/** An `exec` cell running one shell command and printing its exit code and output. */
function shell(cmd: string): ModelCall {
  return {
    name: EXEC,
    args: {
      input:
        `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)}, login: false });\n` +
        'text(`exit ${r.exit_code}\\n${r.output}`);',
    },
  };
}

/** The shell command of an `exec` cell this vocabulary wrote, if it is one. */
function commandOf(call: CallEvent): string | undefined {
  if (call.name !== EXEC) return undefined;
  const m = /tools\.exec_command\(\{ cmd: ("(?:[^"\\]|\\.)*"), login: false \}\)/.exec(String(call.args['input']));
  return m?.[1] === undefined ? undefined : (JSON.parse(m[1]) as string);
}

/** `exit N\n<output>` after Codex's `Script completed … Output:` header. */
export function shellResult(result: ResultEvent): { exit: number; output: string } | undefined {
  const at = result.text.indexOf('Output:\n');
  const body = at < 0 ? result.text : result.text.slice(at + 'Output:\n'.length);
  const m = /^exit (-?\d+|undefined)\n/.exec(body);
  if (m === null) return undefined;
  return { exit: m[1] === 'undefined' ? -1 : Number(m[1]), output: body.slice(m[0].length) };
}

const WRITE = new RegExp(`^mkdir -p \\S+ && cat > (\\S+) <<'${HEREDOC}'\\n([\\s\\S]*)\\n${HEREDOC}$`);

export interface CodexOptions {
  readonly declaration: HostDeclaration;
}

export function codexVocabulary(options: CodexOptions): HostVocabulary {
  return {
    declaration: options.declaration,
    guidedToolName(t, tool: GuidedTool) {
      const name = `${NAMESPACE}.rimthan_${tool}`;
      return t.tools.some((offered) => offered.name === name) ? name : undefined;
    },
    guidedToolOf: guidedToolFromName,
    awaitTools(t): ModelCall {
      // Codex names a connected server's deferred namespace in a developer message; until then, wait for it.
      if (!new RegExp(`Deferred tool namespaces:[^<]*\\b${NAMESPACE}\\b`).test(t.system))
        return { name: 'clock.sleep', args: { duration_ms: 500 } };
      // The search ranks by words: these bring all four Rimthan tools.
      return { name: TOOL_SEARCH, args: { query: 'rimthan start continue prepare submit step validation workflow' } };
    },
    workspaceRoot(t: Transcript) {
      const root = /<cwd>([^<]+)<\/cwd>/.exec(t.system)?.[1];
      if (root === undefined) throw new Error('Codex did not say its working directory');
      return root;
    },
    succeeded(call, result) {
      return call.name === EXEC ? shellResult(result)?.exit === 0 : !result.isError;
    },
    writeFile(_root, path, content) {
      if (!content.endsWith('\n')) throw new Error(`${path}: a heredoc writes text that ends with a newline`);
      const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
      return shell(
        `mkdir -p ${shellQuote(dir)} && cat > ${shellQuote(path)} <<'${HEREDOC}'\n${content.slice(0, -1)}\n${HEREDOC}`,
      );
    },
    writtenFile(_root, call) {
      const m = WRITE.exec(commandOf(call) ?? '');
      return m === null ? undefined : { path: m[1] ?? '', content: `${m[2] ?? ''}\n` };
    },
    readFile(_root, path) {
      return shell(`cat ${shellQuote(path)}`);
    },
    readPath(_root, call) {
      return /^cat (\S+)$/.exec(commandOf(call) ?? '')?.[1];
    },
    fileText(result) {
      return shellResult(result)?.output ?? '';
    },
    digest(_root, paths) {
      return shell(`sha256sum ${paths.map(shellQuote).join(' ')}`);
    },
    digests(call, result) {
      if (!(commandOf(call) ?? '').startsWith('sha256sum ')) return undefined;
      return parseSha256sum(shellResult(result)?.output ?? '');
    },
    validatorProgress(t, since, jobs: readonly ValidatorJob[]): ValidatorProgress {
      const before = t.events
        .slice(0, since)
        .filter((e) => e.kind === 'call' && e.name === 'collaboration.spawn_agent');
      const later = t.events.slice(since);
      const tasks = new Map<string, string>();
      for (const e of later)
        if (e.kind === 'call' && e.name === 'collaboration.spawn_agent') {
          const job = jobs.find((j) => e.args['message'] === j.prompt);
          if (job !== undefined) tasks.set(job.validatorId, `/root/${String(e.args['task_name'])}`);
        }
      const missing = jobs.filter((j) => !tasks.has(j.validatorId));
      if (missing.length > 0)
        return {
          kind: 'next',
          calls: missing.map((job) => ({
            name: 'collaboration.spawn_agent',
            args: {
              // Task names are unique in a session: a validator run again after a repair gets the next number.
              task_name: `${job.validatorId.replaceAll('-', '_')}_${String(before.length + jobs.indexOf(job) + 1)}`,
              message: job.prompt,
              fork_turns: 'none',
            },
          })),
        };
      const answers = new Map<string, string>();
      for (const e of later)
        if (e.kind === 'agent') for (const [id, task] of tasks) if (e.author === task) answers.set(id, e.text);
      if (answers.size < jobs.length)
        return { kind: 'next', calls: [{ name: 'collaboration.wait_agent', args: { timeout_ms: 120_000 } }] };
      return { kind: 'done', answers };
    },
  };
}
