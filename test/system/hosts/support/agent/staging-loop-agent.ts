/**
 * The scripted model of a Codex session that follows a Rimthan workflow through `rimthan participant run` as its
 * staging loop, with Codex's own shell tool and no Rimthan MCP server. Each request it reads what Codex sent: the
 * person's task (the command to run, the answers they gave), its own earlier shell calls and what Codex handed back
 * for them (exit code and output). It runs the command; where the command stops with exit 1 it does what the stop
 * line asks (writes the named file, or adds the asked field to the answers file) and runs it again; on exit 0 it
 * reports. Every protocol decision comes from the command's output; the file bodies come from the scenario (what the
 * model would author), the answers from what the person said.
 */
import type { JsonValue } from '../../../../../src/core/index.js';
import type { Scenario } from '../../scenarios/billing-queue.js';
import type { ScriptedModel } from '../model-endpoint.js';
import type { ModelCall, ModelTurn, Transcript } from '../transcript.js';
import { callsWithResults, taskText } from '../transcript.js';
import { CUSTOM } from '../openai-responses.js';
import { shellResult } from './codex-vocabulary.js';
import type { CallEvent, HostVocabulary } from './host-vocabulary.js';

/** The first sentence of the person's task: the command Codex is to run as its staging loop comes after it. */
export const STAGING_TASK = 'Follow the Rimthan research workflow with this staging loop command';

/** Polls while the command runs (a `participant run` can outlast one exec_command yield), within a bound. */
const MAX_POLLS = 20;

/**
 * An `exec` cell running one command to its end: exec_command, then write_stdin polls on its session while it still
 * runs, printing `exit N` and the whole output (stdout and stderr: the command ends in `2>&1`).
 */
function runToEnd(cmd: string): ModelCall {
  return {
    name: `${CUSTOM}exec`,
    args: {
      input:
        '// @exec: {"yield_time_ms": 600000}\n' +
        `let r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)}, login: false, yield_time_ms: 30000 });\n` +
        'let out = r.output;\n' +
        `for (let i = 0; i < ${String(MAX_POLLS)} && r.exit_code === undefined && r.session_id !== undefined; i++) {\n` +
        '  r = await tools.write_stdin({ session_id: r.session_id, chars: "", yield_time_ms: 30000 });\n' +
        '  out += r.output;\n' +
        '}\n' +
        'text(`exit ${r.exit_code}\\n${out}`);',
    },
  };
}

/** The command of a cell `runToEnd` wrote, if the call is one. */
function commandOf(call: CallEvent): string | undefined {
  const m = /tools\.exec_command\(\{ cmd: ("(?:[^"\\]|\\.)*"), login: false, yield_time_ms/.exec(
    String(call.args['input']),
  );
  return m?.[1] === undefined ? undefined : (JSON.parse(m[1]) as string);
}

/** What a stop line of `participant run` asks for, read from the command's output. */
type Stop =
  | { readonly kind: 'file'; readonly path: string; readonly artifactId: string }
  | { readonly kind: 'answer'; readonly field: string; readonly options: readonly string[] }
  | { readonly kind: 'findings'; readonly validators: readonly string[] }
  | { readonly kind: 'other'; readonly line: string };

function stopOf(output: string): Stop {
  const file = /^rimthan: (\S+) \(([a-z0-9-]+)\) is not there yet/m.exec(output);
  if (file?.[1] !== undefined && file[2] !== undefined) return { kind: 'file', path: file[1], artifactId: file[2] };
  const answer = /needs an answer to (\S+) \(options: ([^)]*)\)/.exec(output);
  if (answer?.[1] !== undefined && answer[2] !== undefined)
    return { kind: 'answer', field: answer[1], options: answer[2].split(', ').filter((o) => o !== '') };
  const findings = /^rimthan: validation failed: (.+) reported findings/m.exec(output);
  if (findings?.[1] !== undefined) return { kind: 'findings', validators: findings[1].split(', ') };
  const line = output.split('\n').find((l) => l.startsWith('rimthan: ')) ?? output.trim().split('\n').at(-1) ?? '';
  return { kind: 'other', line };
}

/** The command and the answers file the person named in their task (`Command: \`...\`` and `Answers file: PATH`). */
function taskOf(t: Transcript): { command: string; answersFile: string } {
  const text = taskText(t);
  const command = /^Command: `(.+)`$/m.exec(text)?.[1];
  const answersFile = /^Answers file: (\S+)$/m.exec(text)?.[1];
  if (command === undefined || answersFile === undefined) throw new Error('the task names no command or answers file');
  return { command, answersFile };
}

/** The person's task text for `scenario`: the command, the answers file and everything they confirm. */
export function stagingPrompt(scenario: Scenario, command: string, answersFile: string): string {
  return [
    `${STAGING_TASK}, so that I can decide this: ${scenario.objective}`,
    '',
    `Command: \`${command}\``,
    `Answers file: ${answersFile}`,
    '',
    'Run it; where it stops, do what its last line asks (write the file it names, or add the field it asks for to the',
    'answers file), then run it again, until it says the workflow is complete. My answers, each confirmed:',
    ...Object.entries(scenario.interview).map(([field, value]) => `- ${field}: ${JSON.stringify(value)}`),
    `- research_route: ${JSON.stringify(scenario.route)}`,
  ].join('\n');
}

/** One `participant run` the model made, and what it read back. */
export interface StagingRun {
  readonly exit: number;
  readonly stop: Stop | undefined;
}

/** Every run of the staging command in the conversation, with its exit code and stop (undefined: no result yet). */
export function stagingRuns(t: Transcript): StagingRun[] {
  const { command } = taskOf(t);
  const out: StagingRun[] = [];
  for (const { call, result } of callsWithResults(t)) {
    if (commandOf(call) !== `${command} 2>&1` || result === undefined) continue;
    const r = shellResult(result);
    if (r === undefined) continue;
    out.push({ exit: r.exit, stop: r.exit === 0 ? undefined : stopOf(r.output) });
  }
  return out;
}

export function stagingLoopAgent(options: {
  readonly scenario: Scenario;
  readonly host: HostVocabulary;
}): ScriptedModel {
  const { scenario, host } = options;
  const answersOf = (fields: readonly string[]): Record<string, JsonValue> => {
    const out: Record<string, JsonValue> = { ...scenario.interview };
    for (const f of fields) if (f === 'research_route') out[f] = scenario.route;
    return out;
  };
  return {
    roleOf: () => 'main',
    decide(t): ModelTurn {
      const { command, answersFile } = taskOf(t);
      const root = host.workspaceRoot(t);
      const run = runToEnd(`${command} 2>&1`);
      const calls = callsWithResults(t);
      const last = calls.at(-1);
      // First: the answers file with the interview answers the person gave, then the command.
      if (last === undefined)
        return { kind: 'calls', calls: [host.writeFile(root, answersFile, `${JSON.stringify(answersOf([]))}\n`)] };
      if (last.result === undefined) throw new Error('Codex sent no result for the last call');
      if (commandOf(last.call) !== `${command} 2>&1`) {
        // The writes since the last run (one, or one per repaired file): all must have worked.
        const lastRun = calls.findLastIndex((c) => commandOf(c.call) === `${command} 2>&1`);
        for (const c of calls.slice(lastRun + 1))
          if (c.result === undefined || !host.succeeded(c.call, c.result))
            return { kind: 'text', text: `Stopped: ${c.result?.text ?? 'a write got no result'}` };
        return { kind: 'calls', calls: [run] };
      }
      const result = shellResult(last.result);
      if (result === undefined)
        return { kind: 'text', text: `Stopped: Codex did not run the command: ${last.result.text}` };
      if (result.exit === 0) return { kind: 'text', text: 'The workflow is complete: the decision is recorded.' };
      const stop = stopOf(result.output);
      // How many drafts of each file the model wrote so far, and which artifact each file is (from the stops).
      const writes = new Map<string, number>();
      for (const c of calls) {
        const written = host.writtenFile(root, c.call);
        if (written !== undefined) writes.set(written.path, (writes.get(written.path) ?? 0) + 1);
      }
      const artifacts = new Map<string, string>();
      for (const r of stagingRuns(t)) if (r.stop?.kind === 'file') artifacts.set(r.stop.path, r.stop.artifactId);
      if (stop.kind === 'file') {
        // A first draft: each route's first draft of one artifact has a flaw a validator finds.
        const body = scenario.drafts[stop.artifactId]?.[writes.get(stop.path) ?? 0];
        if (body === undefined)
          return { kind: 'text', text: `Stopped: I have nothing to write for ${stop.artifactId}.` };
        return { kind: 'calls', calls: [host.writeFile(root, stop.path, body)] };
      }
      if (stop.kind === 'findings') {
        // Repair: the next draft of every file of this workflow that has a better one.
        const repairs = [...artifacts].flatMap(([path, id]) => {
          const body = scenario.drafts[id]?.[writes.get(path) ?? 0];
          return body === undefined || (writes.get(path) ?? 0) === 0 ? [] : [host.writeFile(root, path, body)];
        });
        if (repairs.length === 0)
          return { kind: 'text', text: `Stopped: ${stop.validators.join(', ')} found what I cannot repair.` };
        return { kind: 'calls', calls: repairs };
      }
      if (stop.kind === 'answer') {
        const answered = stagingRuns(t).flatMap((r) => (r.stop?.kind === 'answer' ? [r.stop.field] : []));
        const answers = answersOf(answered);
        const value = answers[stop.field];
        if (value === undefined || (stop.options.length > 0 && !stop.options.some((o) => o === value)))
          return { kind: 'text', text: `Stopped: the workflow asks ${stop.field}, which you did not answer.` };
        return { kind: 'calls', calls: [host.writeFile(root, answersFile, `${JSON.stringify(answers)}\n`)] };
      }
      return { kind: 'text', text: `Stopped: ${stop.line}` };
    },
  };
}
