/**
 * Operator actions on durable runs, outside any execution: the deploy check at start-up (this file), explicit upgrades
 * to a newer flow version (upgrade.ts) and restarts from a completed vertex (restart.ts). They work on a store and a
 * catalog only, so `rimthan runs ...` can run them without a worker; every change is one compare-and-swap commit with
 * its history entry.
 *
 * The deploy check: a run stays pinned to the flow version it started with, so a deployment whose catalog lacks a
 * version that unfinished runs (pending, running, interrupted) are pinned to would leave them waiting forever. By
 * default the supervisor refuses to start and names them; with `fail` those runs are failed with a reason that says
 * so, and the deployment goes on.
 */
import { RimthanError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadRunView } from '../executor/run-loader.js';
import { failStep } from '../executor/steps.js';
import type { FlowCatalog } from '../flow/catalog.js';
import {
  StoreConflictError,
  TERMINAL_STATUSES,
  type DefinitionUse,
  type RunLedger,
  type RunQueue,
} from '../store/types.js';

/** What the deploy check does with unfinished runs of versions the catalog lacks. */
export type RemovedVersions = 'refuse' | 'fail' | 'ignore';

export interface DeploymentCheck {
  /** Versions unfinished runs are pinned to that the catalog lacks (with the oldest run ids). */
  readonly missing: readonly DefinitionUse[];
  /** Runs failed by `fail`. */
  readonly failed: readonly string[];
}

const MAX_TRIES = 8;
const PAGE = 100;

/** The refusal naming what is missing and what the operator can do. */
function refusal(missing: readonly DefinitionUse[]): RimthanError {
  const parts = missing.map((m) => {
    const more = m.runs > m.run_ids.length ? ` and ${m.runs - m.run_ids.length} more` : '';
    return `${m.definition_name}@${m.definition_version} (${m.runs} unfinished run${m.runs === 1 ? '' : 's'}: ${m.run_ids.join(', ')}${more})`;
  });
  return new RimthanError(
    'definition_in_use',
    `this deployment lacks flow versions that unfinished runs are pinned to: ${parts.join('; ')}. Deploy those ` +
      'versions again, upgrade the runs to a newer version (rimthan runs upgrade), cancel them, or fail them at ' +
      'start-up (removedVersions: "fail", rimthan serve --fail-removed-versions)',
  );
}

/** Fails one run of a removed version (retrying when an executing worker commits meanwhile). */
async function failRun(store: RunLedger, clock: Clock, runId: string, message: string): Promise<boolean> {
  for (let i = 0; i < MAX_TRIES; i++) {
    const view = await loadRunView(store, () => store.getRunById(runId));
    if (view === undefined || TERMINAL_STATUSES.has(view.record.status)) return false;
    const step = failStep({
      record: view.record,
      now: clock.now().toISOString(),
      totalVertices: 0,
      cp: view.checkpoint,
      message,
    });
    try {
      await store.commit(buildStepCommit(step));
      return true;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw new RimthanError('unavailable', `run ${runId} kept changing while it was being failed; try again`);
}

/**
 * Compares the versions unfinished runs are pinned to with `catalog`: `refuse` throws RimthanError
 * ('definition_in_use') naming them, `fail` fails their runs, `ignore` only reports them.
 */
export async function checkDeployment(
  store: RunLedger & RunQueue,
  catalog: FlowCatalog,
  mode: RemovedVersions,
  clock: Clock,
): Promise<DeploymentCheck> {
  const missing = (await store.definitionsInUse()).filter(
    (u) => catalog.resolve(u.definition_name, u.definition_version) === undefined,
  );
  if (missing.length === 0 || mode === 'ignore') return { missing, failed: [] };
  if (mode === 'refuse') throw refusal(missing);
  const failed: string[] = [];
  for (const use of missing) {
    const message = `flow ${use.definition_name}@${use.definition_version} was removed from the deployment; the run was failed at start-up`;
    for (;;) {
      const page = await store.runsOfDefinition(use.definition_name, use.definition_version, { limit: PAGE });
      if (page.length === 0) break;
      for (const run of page) if (await failRun(store, clock, run.run_id, message)) failed.push(run.run_id);
      if (page.length < PAGE) break;
    }
  }
  return { missing, failed };
}
