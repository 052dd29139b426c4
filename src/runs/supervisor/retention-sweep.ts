/**
 * The retention sweep: a running supervisor deletes the finished runs its retention rules let go (see
 * SupervisorOptions.retention), flow by flow, in bounded batches (one store transaction each) until nothing is due,
 * checking between batches that it should go on (a stopping supervisor ends the sweep after the batch in flight). Ages
 * are measured with the supervisor's clock. Several workers may sweep one store at once: a run is deleted once, the
 * other sweep just finds fewer runs due.
 */
import type { Clock } from '../../core/clock.js';
import type { RunRetention } from '../store/types.js';
import type { CheckedRetention } from './options.js';
import type { RetentionRule } from './types.js';

/** Runs deleted per store transaction by the sweep. */
export const RETENTION_BATCH = 200;

/** What one sweep deleted, per flow name (flows that lost none are absent). */
export interface SweepReport {
  readonly deleted: number;
  readonly by_flow: Readonly<Record<string, number>>;
}

/** The rule of `flow` (its own, else the default); undefined or `{}` keeps its runs. */
function ruleOf(policy: CheckedRetention, flow: string): RetentionRule | undefined {
  const rule = policy.flows.get(flow) ?? policy.default;
  return rule === undefined || (rule.maxAgeMs === undefined && rule.keepLast === undefined) ? undefined : rule;
}

/** True when `store` has the retention role (a store built for an older interface may lack it). */
export function hasRetention(store: object): store is RunRetention {
  const s = store as Partial<RunRetention>;
  return typeof s.pruneRuns === 'function' && typeof s.finishedDefinitions === 'function';
}

/** Deletes every finished run due now under `policy`; returns what went. */
export async function sweepRetention(
  store: RunRetention,
  policy: CheckedRetention,
  clock: Clock,
  going: () => boolean,
): Promise<SweepReport> {
  const now = clock.now().getTime();
  const byFlow: Record<string, number> = {};
  let deleted = 0;
  for (const flow of await store.finishedDefinitions()) {
    const rule = ruleOf(policy, flow);
    if (rule === undefined) continue;
    const query = {
      definition_name: flow,
      limit: RETENTION_BATCH,
      ...(rule.maxAgeMs === undefined ? {} : { finished_before: new Date(now - rule.maxAgeMs).toISOString() }),
      ...(rule.keepLast === undefined ? {} : { keep_last: rule.keepLast }),
    };
    for (;;) {
      if (!going()) return { deleted, by_flow: byFlow };
      const batch = await store.pruneRuns(query);
      if (batch.deleted > 0) byFlow[flow] = (byFlow[flow] ?? 0) + batch.deleted;
      deleted += batch.deleted;
      if (batch.deleted < RETENTION_BATCH) break;
    }
  }
  return { deleted, by_flow: byFlow };
}
