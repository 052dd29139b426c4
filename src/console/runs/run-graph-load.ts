/**
 * Reads what a run's graph is drawn from (run-graph.ts), read-only: the run through `workflow_run_get` first (so a run
 * of another session is the tool's `not_found`, exactly as everywhere else), then its record, its history (at most
 * MAX_GRAPH_HISTORY entries), its latest checkpoint and its child runs from the store, and the flow's shape from the
 * catalog the runs were started from.
 */
import { decodeCheckpoint, flowShape } from '../../runs/index.js';
import type { ActivityEntry, FlowCatalog, RunLedger, RunRecord, RunWaits } from '../../runs/index.js';
import { RunToolName } from '../../tools/index.js';
import type { Outcome } from '../http/router.js';
import type { ConsoleRuns } from './runs-api.js';
import { runGraphOf } from './run-graph.js';

/** History entries one graph reads, at most (the states of a longer run's later vertices show from its checkpoint). */
export const MAX_GRAPH_HISTORY = 5000;
/** Child runs one graph lists, at most. */
export const MAX_GRAPH_CHILDREN = 100;
const PAGE = 500;

/** The catalog and the store the console's graphs read (the runs stack's). */
export interface ConsoleFlows {
  readonly catalog: Pick<FlowCatalog, 'resolve'>;
  readonly store: Pick<RunLedger, 'getRun' | 'history' | 'latestCheckpoint'> & Pick<RunWaits, 'childRuns'>;
}

async function readHistory(
  flows: ConsoleFlows,
  runId: string,
): Promise<{ entries: ActivityEntry[]; truncated: boolean }> {
  const entries: ActivityEntry[] = [];
  for (;;) {
    const last = entries.at(-1);
    const page = await flows.store.history(runId, {
      limit: PAGE,
      ...(last === undefined ? {} : { after_revision: last.revision, after_event_id: last.event_id }),
    });
    entries.push(...page);
    if (page.length < PAGE) return { entries, truncated: false };
    if (entries.length >= MAX_GRAPH_HISTORY) return { entries, truncated: true };
  }
}

/** The graph of `runId` as `session` sees it, or the refusal. */
export async function loadRunGraph(
  runs: ConsoleRuns,
  flows: ConsoleFlows | undefined,
  session: string,
  runId: string,
  now: Date = new Date(),
): Promise<Outcome> {
  const seen = await runs.call(session, RunToolName.RunGet, { run_id: runId });
  if (!seen.ok) return seen;
  if (flows === undefined) {
    return { ok: false, error: { code: 'unavailable', message: 'this console reads no flow catalog' } };
  }
  const record = await flows.store.getRun(session, runId);
  if (record === undefined) return { ok: false, error: { code: 'not_found', message: 'no such run' } };
  const definition = flows.catalog.resolve(record.definition_name, record.definition_version);
  if (definition === undefined) {
    return {
      ok: false,
      error: {
        code: 'unknown_definition',
        message: `flow ${record.definition_name}@${record.definition_version} is not in the console's catalog`,
      },
    };
  }
  const [history, cp, listed] = await Promise.all([
    readHistory(flows, runId),
    flows.store.latestCheckpoint(runId),
    flows.store.childRuns(runId, { limit: MAX_GRAPH_CHILDREN }),
  ]);
  const children: RunRecord[] = listed.filter((c) => c.session_id === session);
  const graph = runGraphOf({
    shape: flowShape(definition),
    record,
    history: history.entries,
    truncated: history.truncated,
    checkpoint: cp === undefined ? undefined : decodeCheckpoint(cp.state),
    children,
    now,
  });
  return { ok: true, value: graph };
}
