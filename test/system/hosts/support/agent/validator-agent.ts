/**
 * The scripted model inside a validator subagent. It knows only the prompt its parent gave it (the research-validator
 * text, the validator id and version, the input paths and the brief) and what its own tool calls returned: it reads
 * its inputs, then the repository sources they cite when its checks need them, and answers with one JSON report.
 */
import type { ModelTurn, Transcript } from '../transcript.js';
import { callsWithResults, taskText } from '../transcript.js';
import type { HostVocabulary } from './host-vocabulary.js';
import { RESEARCH_CHECKS } from './research-checks.js';

const VALIDATOR_LINE = /^Validator: ([a-z][a-z0-9-]*)@([0-9][0-9A-Za-z.+-]*)$/m;
const INPUT_LINE = /^- ([a-z][a-z0-9-]*): (\S+)$/gm;

/** The validator a subagent conversation is for, when it is one. */
export function validatorOf(t: Transcript): { id: string; version: string } | undefined {
  const task = taskText(t);
  if (!task.includes('You are a Rimthan validator.')) return undefined;
  const m = VALIDATOR_LINE.exec(task);
  return m === null ? undefined : { id: m[1] ?? '', version: m[2] ?? '' };
}

/** The brief lines a validator prompt carries: `Validator: id@version` and one `- artifact: path` per input. */
export function validatorPromptLines(
  id: string,
  version: string,
  inputs: readonly { artifactId: string; path: string }[],
): string[] {
  return [
    `Validator: ${id}@${version}`,
    'Input artifacts (project-relative, read-only):',
    ...inputs.map((i) => `- ${i.artifactId}: ${i.path}`),
  ];
}

export function validatorTurn(t: Transcript, host: HostVocabulary): ModelTurn {
  const validator = validatorOf(t);
  if (validator === undefined) throw new Error('not a validator conversation');
  const check = RESEARCH_CHECKS[validator.id];
  const task = taskText(t);
  const section = task.slice(task.indexOf('Input artifacts'));
  const inputs = new Map([...section.split('\n\n')[0]!.matchAll(INPUT_LINE)].map((m) => [m[1] ?? '', m[2] ?? '']));
  const root = host.workspaceRoot(t);
  const files = new Map<string, string>();
  for (const { call, result } of callsWithResults(t)) {
    const path = host.readPath(root, call);
    if (path !== undefined && result !== undefined && host.succeeded(call, result))
      files.set(path, host.fileText(result));
  }
  const report = (outcome: string, findings: unknown[]): ModelTurn => ({
    kind: 'text',
    text: JSON.stringify({ validator_id: validator.id, validator_version: validator.version, outcome, findings }),
  });
  if (check === undefined)
    return report('failed', [{ severity: 'error', message: `no criteria known for validator ${validator.id}` }]);
  if (inputs.size === 0)
    return report('failed', [{ severity: 'error', message: 'the prompt names no input artifacts' }]);
  const attempted = new Set(
    callsWithResults(t)
      .map(({ call }) => host.readPath(root, call))
      .filter((p) => p !== undefined),
  );
  const unread = [...inputs.values()].filter((p) => !attempted.has(p));
  if (unread.length > 0) return { kind: 'calls', calls: unread.map((p) => host.readFile(root, p)) };
  const sources = check.sources(inputs, files).filter((p) => !attempted.has(p));
  if (sources.length > 0) return { kind: 'calls', calls: sources.map((p) => host.readFile(root, p)) };
  const findings = check.findings(inputs, files);
  return report(findings.some((f) => f.severity === 'error') ? 'failed' : 'passed', findings);
}
