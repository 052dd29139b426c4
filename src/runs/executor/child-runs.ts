/**
 * Child runs seen from their parent: a parent that ends cancelled cancels its unfinished children (and they theirs),
 * and a child that ends wakes its parent when the parent is parked awaiting it.
 */
import type { Clock } from '../../core/clock.js';
import type { FlowCatalog } from '../flow/catalog.js';
import {
  RunStatus,
  StoreConflictError,
  TERMINAL_STATUSES,
  type RunLedger,
  type RunQueue,
  type RunRecord,
  type RunWaits,
} from '../store/types.js';
import { buildStepCommit } from './commit-builder.js';
import { loadRunView, pinnedDefinition } from './run-loader.js';
import { cancelStep } from './steps.js';

export const PARENT_CANCELLED = 'parent run cancelled';
const PAGE = 100;
/** Depth of child runs a cancellation follows (a guard against a cycle of parent ids, which starts never make). */
const MAX_DEPTH = 32;

export interface ChildRunsDeps {
  readonly store: RunLedger & RunQueue & RunWaits;
  readonly catalog: FlowCatalog;
  readonly clock: Clock;
}

/**
 * Cancels every unfinished child of `runId`: a running one through a cancel request (its worker, or the claim a
 * parked child's request triggers, writes the end), a pending or interrupted one at once with its terminal
 * checkpoint, and then its own children. A fault on one child is reported and the others still go.
 */
export async function cancelChildren(
  deps: ChildRunsDeps,
  runId: string,
  onError: (error: unknown) => void,
  depth = 0,
): Promise<void> {
  if (depth >= MAX_DEPTH) return;
  let after = 0;
  for (;;) {
    const page = await deps.store.childRuns(runId, { after_seq: after, limit: PAGE });
    for (const child of page) {
      if (TERMINAL_STATUSES.has(child.status)) continue;
      try {
        if (await cancelOne(deps, child)) await cancelChildren(deps, child.run_id, onError, depth + 1);
      } catch (error) {
        onError(error);
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return;
    after = last.created_seq;
  }
}

/** True when this call wrote the child's terminal checkpoint (its worker otherwise cancels its children itself). */
async function cancelOne(deps: ChildRunsDeps, child: RunRecord): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  if (child.status === RunStatus.Running) {
    await deps.store.requestCancel(child.run_id, PARENT_CANCELLED, now);
    await deps.store.notify(child.run_id);
    return false;
  }
  const view = await loadRunView(deps.store, () => deps.store.getRunById(child.run_id));
  if (view === undefined || TERMINAL_STATUSES.has(view.record.status)) return false;
  const totalVertices = pinnedDefinition(deps.catalog, view.record)?.graph.size ?? 0;
  const step = cancelStep({ record: view.record, now, totalVertices, cp: view.checkpoint, reason: PARENT_CANCELLED });
  try {
    await deps.store.commit(buildStepCommit(step));
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
    // It moved meanwhile (claimed, resumed): a request reaches whoever holds it now.
    await deps.store.requestCancel(child.run_id, PARENT_CANCELLED, now);
    await deps.store.notify(child.run_id);
    return false;
  }
  await deps.store.notify(child.run_id);
  return true;
}

/** A run that ended wakes its parent if the parent is parked awaiting it. */
export async function wakeParentOf(store: RunQueue & RunWaits, record: RunRecord): Promise<void> {
  if (record.parent_run_id === null) return;
  await store.wakeParent(record.parent_run_id, record.run_id);
  await store.notify(record.parent_run_id);
}
