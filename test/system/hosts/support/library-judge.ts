/**
 * The judge of a library route run on a real host: each validator report checked against what the host actually
 * showed. For every validator subagent conversation it takes the prompt the host gave the subagent (validator, step,
 * round, inputs), the files the host's tools returned to it, and the report it answered; for the main conversation,
 * the reports the agent submitted to Rimthan and what Rimthan answered. A report stands only when the subagent read
 * every input, what it read is what the route wrote by that round, it is the scenario's report for that round, its
 * findings speak only of its inputs, and the agent submitted exactly it.
 */
import { callsWithResults, toolPayload } from './transcript.js';
import type { HostVocabulary } from './agent/host-vocabulary.js';
import { readsOf, validatorTaskOf } from './agent/validator-agent.js';
import type { ValidatorReport } from './agent/validator-agent.js';
import type { HostRun } from './host-session.js';
import { contentAt, reportAt, roundsOf, sameText } from './library-routes.js';
import type { LibraryRoute } from './library-routes.js';
import { conversations } from './run-figures.js';

/** What the judge found: every problem, and what stood. */
export interface Judgement {
  readonly problems: readonly string[];
  /** `step/validator` → the outcomes its subagents reported, in order. */
  readonly reported: ReadonlyMap<string, readonly string[]>;
  /** step → what Rimthan answered each submit of it, in order. */
  readonly submits: ReadonlyMap<string, readonly string[]>;
}

type Obj = Record<string, unknown>;

const reportText = (r: { outcome: unknown; findings: unknown }): string =>
  JSON.stringify({ outcome: r.outcome, findings: r.findings });

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}

export function judgeRouteRun(run: HostRun, route: LibraryRoute, host: HostVocabulary): Judgement {
  const problems: string[] = [];
  const reported = new Map<string, string[]>();
  const ends = conversations(run.requests);

  for (const end of ends.filter((r) => r.role.startsWith('validator:'))) {
    const task = validatorTaskOf(end.transcript);
    if (task === undefined) {
      problems.push(`${end.role}: the subagent's prompt names no validator`);
      continue;
    }
    const where = `${task.id} on ${task.step}, round ${String(task.round)}`;
    if (end.turn.kind !== 'text') {
      problems.push(`${where}: the subagent never answered`);
      continue;
    }
    const answer = JSON.parse(end.turn.text) as ValidatorReport;
    push(reported, `${task.step}/${task.id}`, answer.outcome);
    const { files } = readsOf(end.transcript, host);
    const written = contentAt(route, task.step, task.round);
    for (const [id, path] of task.inputs) {
      const read = files.get(path);
      const expected = written.get(id);
      if (read === undefined) problems.push(`${where}: the host never showed the subagent ${path}`);
      else if (expected !== undefined && !sameText(read, expected))
        problems.push(`${where}: the host showed ${path} other than the route wrote by then`);
    }
    const expected = reportAt(route, task.step, task.id, task.round);
    if (reportText(answer) !== reportText(expected))
      problems.push(`${where}: reported ${reportText(answer)}, the scenario gives ${reportText(expected)}`);
    for (const f of answer.findings)
      if (f.artifact_id !== undefined && !task.inputs.has(f.artifact_id))
        problems.push(`${where}: a finding names ${f.artifact_id}, which the subagent was not given`);
  }

  // The reports the agent submitted, in order per step, and what Rimthan answered.
  const submits = new Map<string, string[]>();
  const submitted = new Map<string, Obj[][]>();
  const main = ends.filter((r) => r.role === 'main').at(-1);
  for (const { call, result } of callsWithResults(main?.transcript ?? { system: '', events: [], tools: [] })) {
    if (host.guidedToolOf(call.name) !== 'submit_step_validation' || result === undefined) continue;
    const step = String((call.args['checkpoint'] as Obj | undefined)?.['current_step']);
    const answer = JSON.parse(toolPayload(result.text)) as Obj;
    push(submits, step, String(answer['status']));
    push(submitted, step, (call.args['reports'] as Obj[] | undefined) ?? []);
  }
  for (const [step, rounds] of submitted)
    rounds.forEach((reports, k) => {
      for (const report of reports) {
        const id = String(report['validator_id']);
        const expected = reportAt(route, step, id, k + 1);
        if (reportText(report as { outcome: unknown; findings: unknown }) !== reportText(expected))
          problems.push(`${step} round ${String(k + 1)}: the agent submitted ${id} other than its subagent reported`);
      }
    });

  // Every validated step of the route went through its rounds as the scenario says.
  for (const entry of route.scenario.scenario.steps) {
    const gated = route.workflow.steps.find((s) => s.id === entry.step)?.validators.length ?? 0;
    if (gated === 0) continue;
    const rounds = roundsOf(route, entry.step);
    const want = [...Array<string>(rounds - 1).fill('validation_failed'), 'settled'];
    const got = (submits.get(entry.step) ?? []).map((s) => (s === 'validation_failed' ? s : 'settled'));
    if (got.join() !== want.join())
      problems.push(
        `${entry.step}: submits answered ${got.join(', ') || 'nothing'}, the scenario has ${want.join(', ')}`,
      );
  }
  return { problems, reported, submits };
}
