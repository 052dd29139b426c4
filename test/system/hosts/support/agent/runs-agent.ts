/**
 * The scripted model of an agent driving Rimthan's durable runs on a real host: it lists the definitions, starts the
 * shipped `release_notes` flow with the person's tag and version, follows the run with `workflow_run_get`, reads the
 * draft when the run waits for approval, resumes it with the approval the person gave, and reports the result once the
 * run is finished. Every decision comes from the tool results the host showed; polling is capped by the endpoint's
 * turn cap.
 */
import type { ScriptedModel } from '../model-endpoint.js';
import type { ModelCall, ModelTurn, Transcript } from '../transcript.js';
import { callsWithResults, toolPayload } from '../transcript.js';
import type { HostVocabulary } from './host-vocabulary.js';

export interface RunsScenario {
  /** The server's name in the host (tools are `<prefix>workflow_run_*`). */
  readonly toolPrefix: string;
  readonly input: Readonly<Record<string, string>>;
  /** The approval the person gave up front. */
  readonly approve: boolean;
}

type Obj = Record<string, unknown>;

export function runsAgent(
  scenario: RunsScenario,
  host: HostVocabulary,
  awaitTools: (t: Transcript) => ModelCall,
): ScriptedModel {
  const name = (tool: string): string => `${scenario.toolPrefix}${tool}`;
  const offered = (t: Transcript, tool: string): boolean => t.tools.some((x) => x.name === name(tool));

  function decide(t: Transcript): ModelTurn {
    const done = callsWithResults(t).filter(
      (c) => c.result !== undefined && c.call.name.startsWith(scenario.toolPrefix),
    );
    if (!offered(t, 'workflow_run_start')) return { kind: 'calls', calls: [awaitTools(t)] };
    const parsed = (text: string): Obj | undefined => {
      try {
        return JSON.parse(text) as Obj;
      } catch {
        return undefined;
      }
    };
    const last = done[done.length - 1];
    if (last === undefined) return { kind: 'calls', calls: [{ name: name('workflow_definition_list'), args: {} }] };
    const value = parsed(toolPayload(last.result!.text));
    if (last.result!.isError || value === undefined || value['error'] !== undefined)
      return { kind: 'text', text: `Stopping: ${last.call.name} was refused: ${last.result!.text}` };
    const started = done.find((c) => c.call.name === name('workflow_run_start'));
    if (started === undefined) {
      const definitions = (value['definitions'] as Obj[] | undefined) ?? [];
      if (!definitions.some((d) => d['name'] === 'release_notes'))
        return { kind: 'text', text: 'Stopping: the server offers no release_notes flow.' };
      return {
        kind: 'calls',
        calls: [
          {
            name: name('workflow_run_start'),
            args: { definition_name: 'release_notes', definition_version: 'v1', input: scenario.input },
          },
        ],
      };
    }
    const runId = String(parsed(toolPayload(started.result!.text))?.['run_id']);
    const status = typeof value['run_status'] === 'string' ? value['run_status'] : '';
    const get: ModelCall = { name: name('workflow_run_get'), args: { run_id: runId } };
    if (status === 'completed')
      return { kind: 'text', text: 'The run is completed: CHANGELOG.md holds the new section.' };
    if (status === 'failed' || status === 'cancelled') return { kind: 'text', text: `Stopping: the run is ${status}.` };
    const resumed = done.some((c) => c.call.name === name('workflow_run_resume'));
    if (status === 'interrupted' && !resumed) {
      const interrupt = (value['interrupt'] ?? {}) as Obj;
      if (interrupt['reason'] !== 'awaiting_input')
        return { kind: 'text', text: `Stopping: the run is interrupted (${String(value['status_summary'])}).` };
      // Read the draft the person is asked to approve, then resume with their answer.
      const root = host.workspaceRoot(t);
      const read = callsWithResults(t).some((c) => host.readPath(root, c.call) === 'CHANGELOG.draft.md');
      if (!read) return { kind: 'calls', calls: [host.readFile(root, 'CHANGELOG.draft.md')] };
      return {
        kind: 'calls',
        calls: [{ name: name('workflow_run_resume'), args: { run_id: runId, resume: { approved: scenario.approve } } }],
      };
    }
    return { kind: 'calls', calls: [get] };
  }

  return { roleOf: () => 'main', decide };
}
