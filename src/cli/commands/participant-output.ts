/**
 * How `rimthan participant` shows results: `--json` prints the tool answer (or status) as JSON on stdout; otherwise
 * words for a person. A result that stops the workflow here (blocked, deterministic failures, failed validators) is
 * printed in full on stdout and then fails the command with one line on stderr, so scripts see exit code 1.
 */
import { str as text } from '../../participant/index.js';
import type { JsonObject } from '../../core/index.js';
import type { SessionStatus, WorkOrder } from '../../participant/index.js';
import { CommandFailed } from '../errors.js';
import type { CliIo } from '../io.js';
import { shown } from '../terminal.js';

/** A served value as a person sees it: as text, its controls escaped, bounded (terminal.ts). */
const str = (value: unknown): string => shown(text(value));

function codesOf(items: readonly JsonObject[], field = 'code'): string {
  return [...new Set(items.map((i) => str(i[field])))].join(', ');
}

function stepLine(result: JsonObject): string {
  const checkpoint = result['checkpoint'] as JsonObject | null;
  const step = (result['step'] as JsonObject | null)?.['step'] as JsonObject | undefined;
  const id = step?.['id'] ?? checkpoint?.['current_step'] ?? '?';
  return `step ${str(id)}${step?.['title'] === undefined ? '' : `: ${str(step['title'])}`}`;
}

/** Words for a start/continue/prepare/submit answer. */
export function resultWords(result: JsonObject): string[] {
  const status = str(result['status']);
  const lines = [`status: ${status}`];
  if (status === 'active' || status === 'advanced') lines.push(stepLine(result));
  if (status === 'input_required') {
    const q = result['question'] as JsonObject;
    lines.push(`question (${str(q['field'])}): ${str(q['prompt'])}`);
    for (const o of (q['options'] ?? []) as JsonObject[]) lines.push(`  ${str(o['value'])}: ${str(o['label'])}`);
    lines.push(`answer with: rimthan participant answer ${str(q['field'])} VALUE`);
  }
  if (status === 'blocked') {
    for (const b of (result['blockers'] ?? []) as JsonObject[]) {
      const detail = Object.entries(b)
        .filter(([k]) => k !== 'code')
        .map(([k, v]) => `${str(k)}=${str(JSON.stringify(v))}`);
      lines.push(`  blocker ${str(b['code'])}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`);
    }
  }
  if (status === 'deterministic_validation_failed') {
    for (const f of (result['failures'] ?? []) as JsonObject[]) {
      const detail = Object.entries(f)
        .filter(([k]) => k !== 'code')
        .map(([k, v]) => `${str(k)}=${str(JSON.stringify(v))}`);
      lines.push(`  failure ${str(f['code'])}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`);
    }
  }
  if (status === 'ready_for_semantic_validation') {
    const validators = (result['validators'] ?? []) as JsonObject[];
    if (validators.length === 0) lines.push('no validator needs to report: rimthan participant submit');
    for (const v of validators)
      lines.push(`  validator ${str(v['validator_id'])}@${str(v['validator_version'])}: ${str(v['title'])}`);
  }
  if (status === 'validation_failed') {
    for (const f of (result['findings'] ?? []) as JsonObject[]) {
      lines.push(`  ${str(f['validator_id'])}: ${str(f['severity'])}: ${str(f['message'])}`);
    }
  }
  if (status === 'completed') lines.push('the workflow is complete');
  return lines;
}

/** Prints a tool answer; fails the command when the answer stops the workflow. */
export function printResult(io: CliIo, result: JsonObject, json: boolean, extra: JsonObject = {}): void {
  io.out(json ? JSON.stringify({ ...result, ...extra }, null, 2) : resultWords(result).join('\n'));
  failIfStopped(result);
}

/** The one-line failure of an answer that stops the workflow here (none for the others). */
export function failIfStopped(result: JsonObject): void {
  const status = result['status'];
  if (status === 'blocked') {
    throw new CommandFailed('blocked', `blocked: ${codesOf((result['blockers'] ?? []) as JsonObject[])}`, {
      reported: false,
    });
  }
  if (status === 'deterministic_validation_failed') {
    const failures = (result['failures'] ?? []) as JsonObject[];
    throw new CommandFailed(
      'deterministic_validation_failed',
      `prepare found ${failures.length} deterministic failure${failures.length === 1 ? '' : 's'}: ${codesOf(failures)} (details on stdout)`,
    );
  }
  if (status === 'validation_failed') {
    throw new CommandFailed(
      'validation_failed',
      `validation failed: ${codesOf((result['findings'] ?? []) as JsonObject[], 'validator_id') || 'a validator'} reported findings (on stdout); repair the files, then prepare again`,
    );
  }
}

/** Words for a status. */
export function statusWords(s: SessionStatus): string[] {
  const lines = [
    `workflow ${str(s.workflow.id)}@${str(s.workflow.version)} (release ${str(s.release)}), checkpoint ${s.sequence}`,
    `step ${str(s.step.id)}: ${str(s.step.title)}${s.step.gated ? ' (gated: files and validators)' : ''}`,
    `confirmed: ${s.confirmed_fields.map(str).join(', ') || 'nothing yet'}`,
  ];
  const changed = new Map(s.changed.map((c) => [c.artifact_id, c]));
  const own = new Set(s.outputs.map((o) => o.artifact_id));
  const acceptedWords = (id: string): string => {
    const c = changed.get(id);
    return c === undefined ? 'accepted' : c.on_disk ? 'accepted, but changed on disk since' : 'accepted, but missing';
  };
  for (const o of s.outputs) {
    lines.push(
      `  ${str(o.path)} (${str(o.artifact_id)}): ${o.accepted ? acceptedWords(o.artifact_id) : o.on_disk ? 'on disk, not yet validated' : 'not written yet'}`,
    );
  }
  for (const c of s.changed) {
    if (!own.has(c.artifact_id)) {
      lines.push(`  ${str(c.path)} (${str(c.artifact_id)}): ${acceptedWords(c.artifact_id)}`);
    }
  }
  for (const a of s.changed_assets) {
    lines.push(
      `  ${str(a.path)} (${str(a.kind)} ${str(a.id)}@${str(a.version)}): ${a.on_disk ? 'changed' : 'gone'} since setup attested it`,
    );
  }
  if (s.pending !== null) {
    for (const v of s.pending.validators)
      lines.push(`  validator ${str(v)}: ${s.pending.reports.includes(v) ? 'report registered' : 'report due'}`);
  }
  if (s.question !== null)
    lines.push(
      `question (${str(s.question.field)}): ${str(s.question.prompt)}`,
      `  options: ${s.question.options.map(str).join(', ')}`,
    );
  lines.push(`next: ${str(s.next)}`);
  return lines;
}

/** Words for validator work orders. */
export function workOrderWords(orders: readonly WorkOrder[]): string[] {
  return orders.map(
    (o) =>
      `  ${str(o.validator_id)}: reads ${o.inputs.map((i) => str(i.path)).join(', ')}${o.required_capabilities.length > 0 ? `; needs ${o.required_capabilities.map(str).join(', ')}` : ''}`,
  );
}
