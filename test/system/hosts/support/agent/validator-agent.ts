/**
 * The scripted model inside a validator subagent. It knows only the prompt its parent gave it (the validator subagent
 * text, the validator id and version, the step and validation round, the input paths and the brief) and what its own
 * tool calls returned: it reads its inputs, then the repository sources its criteria need, and answers with one JSON
 * report. What it judges by (the criteria) is given by the workflow's script: the research checks, or a route's
 * reports.
 */
import type { ModelTurn, Transcript } from '../transcript.js';
import { callsWithResults, taskText } from '../transcript.js';
import type { Finding } from '../../../../../src/guided/engine/reports.js';
import type { HostVocabulary } from './host-vocabulary.js';

const VALIDATOR_LINE = /^Validator: ([a-z][a-z0-9-]*)@([0-9][0-9A-Za-z.+-]*)$/m;
const ROUND_LINE = /^Step: ([a-z][a-z0-9-]*), validation round ([1-9][0-9]*)$/m;
const INPUT_LINE = /^- ([a-z][a-z0-9-]*): (\S+)$/gm;

/** A finding of a report: the engine's own shape. */
export type { Finding };

/** One JSON report, as the validator subagent text asks for. */
export interface ValidatorReport {
  readonly outcome: 'passed' | 'failed';
  readonly findings: readonly Finding[];
}

/** What the prompt asked this subagent: which validator, on which step and round, over which inputs. */
export interface ValidatorTask {
  readonly id: string;
  readonly version: string;
  readonly step: string;
  /** 1 for the first validation of the step, 2 after one failed round, … */
  readonly round: number;
  /** artifact id → project-relative path. */
  readonly inputs: ReadonlyMap<string, string>;
}

/** The files a validator read: project-relative path → text. */
export type ReadFiles = ReadonlyMap<string, string>;

/** What a validator subagent judges by. */
export interface ValidatorCriteria {
  /** Further repository files to open after the inputs, by what the inputs say. */
  sources(task: ValidatorTask, files: ReadFiles): string[];
  report(task: ValidatorTask, files: ReadFiles): ValidatorReport;
}

/** The validator a subagent conversation is for, when it is one. */
export function validatorOf(t: Transcript): { id: string; version: string } | undefined {
  const task = taskText(t);
  if (!task.includes('You are a Rimthan validator.')) return undefined;
  const m = VALIDATOR_LINE.exec(task);
  return m === null ? undefined : { id: m[1] ?? '', version: m[2] ?? '' };
}

/** The whole task of a validator subagent, from its prompt; undefined when it is not one. */
export function validatorTaskOf(t: Transcript): ValidatorTask | undefined {
  const validator = validatorOf(t);
  if (validator === undefined) return undefined;
  const task = taskText(t);
  const round = ROUND_LINE.exec(task);
  const section = task.slice(task.indexOf('Input artifacts'));
  const inputs = new Map([...section.split('\n\n')[0]!.matchAll(INPUT_LINE)].map((m) => [m[1] ?? '', m[2] ?? '']));
  return { ...validator, step: round?.[1] ?? '', round: Number(round?.[2] ?? 0), inputs };
}

/** The lines a validator prompt carries: the validator, the step and round, one `- artifact: path` per input. */
export function validatorPromptLines(
  id: string,
  version: string,
  step: string,
  round: number,
  inputs: readonly { artifactId: string; path: string }[],
): string[] {
  return [
    `Validator: ${id}@${version}`,
    `Step: ${step}, validation round ${String(round)}`,
    'Input artifacts (project-relative, read-only):',
    ...inputs.map((i) => `- ${i.artifactId}: ${i.path}`),
  ];
}

/** What the subagent's own reads returned: project-relative path → text, and every path it tried. */
export function readsOf(t: Transcript, host: HostVocabulary): { files: Map<string, string>; attempted: Set<string> } {
  const root = host.workspaceRoot(t);
  const files = new Map<string, string>();
  const attempted = new Set<string>();
  for (const { call, result } of callsWithResults(t)) {
    const path = host.readPath(root, call);
    if (path === undefined) continue;
    attempted.add(path);
    if (result !== undefined && host.succeeded(call, result)) files.set(path, host.fileText(result));
  }
  return { files, attempted };
}

export function validatorTurn(t: Transcript, host: HostVocabulary, criteria: ValidatorCriteria): ModelTurn {
  const task = validatorTaskOf(t);
  if (task === undefined) throw new Error('not a validator conversation');
  const report = (outcome: string, findings: readonly Finding[]): ModelTurn => ({
    kind: 'text',
    text: JSON.stringify({ validator_id: task.id, validator_version: task.version, outcome, findings }),
  });
  if (task.inputs.size === 0)
    return report('failed', [{ severity: 'error', message: 'the prompt names no input artifacts' }]);
  const root = host.workspaceRoot(t);
  const { files, attempted } = readsOf(t, host);
  const unread = [...task.inputs.values()].filter((p) => !attempted.has(p));
  if (unread.length > 0) return { kind: 'calls', calls: unread.map((p) => host.readFile(root, p)) };
  const sources = criteria.sources(task, files).filter((p) => !attempted.has(p));
  if (sources.length > 0) return { kind: 'calls', calls: sources.map((p) => host.readFile(root, p)) };
  const judged = criteria.report(task, files);
  return report(judged.outcome, judged.findings);
}
