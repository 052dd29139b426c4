/**
 * Cancel: already cancelled → idempotent (nothing written); completed or failed → conflict; pending → cancelled at once;
 * running here → the local executor halts and appends the terminal checkpoint (cancel_requested set, the reason as
 * summary) after its commits in flight; otherwise (an interrupted run, or one executing elsewhere) this call appends
 * it, and compare-and-swap fences the other owner out.
 */
import { RimthanError } from '../../core/errors.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadRunView, pinnedDefinition } from '../executor/run-loader.js';
import { MAX_MESSAGE_BYTES } from '../executor/text.js';
import { cancelStep } from '../executor/steps.js';
import { RunStatus, StoreConflictError, type RunRecord } from '../store/types.js';
import { runConflict, runNotFound } from './errors.js';
import type { EngineHandle } from './types.js';

const MAX_TRIES = 16;
export const DEFAULT_CANCEL_REASON = 'cancel requested';

/** Bounds (before trimming) and trims a cancel reason; blank becomes "cancel requested". */
export function normalizeCancelReason(reason: string): string {
  if (typeof reason !== 'string' || Buffer.byteLength(reason, 'utf8') > MAX_MESSAGE_BYTES) {
    throw new RimthanError('invalid_arguments', `reason must be a string of at most ${MAX_MESSAGE_BYTES} bytes`);
  }
  const trimmed = reason.trim();
  return trimmed.length === 0 ? DEFAULT_CANCEL_REASON : trimmed;
}

async function tryCommit(engine: EngineHandle, commit: Parameters<EngineHandle['store']['commit']>[0]) {
  try {
    return await engine.store.commit(commit);
  } catch (error) {
    if (error instanceof StoreConflictError) return undefined;
    throw error;
  }
}

/** Cancels a run of the session; see SessionController.cancel. */
export async function cancelRun(
  engine: EngineHandle,
  sessionId: string,
  runId: string,
  rawReason: string,
): Promise<{ record: RunRecord; idempotent: boolean }> {
  const reason = normalizeCancelReason(rawReason);
  let requested = false;
  for (let i = 0; i < MAX_TRIES; i++) {
    const view = await loadRunView(engine.store, () => engine.store.getRun(sessionId, runId));
    if (view === undefined) throw runNotFound();
    const { record } = view;
    const now = engine.clock.now().toISOString();
    switch (record.status) {
      case RunStatus.Cancelled:
        return { record, idempotent: !requested };
      case RunStatus.Completed:
      case RunStatus.Failed:
        throw runConflict(`run is ${record.status}`);
      case RunStatus.Pending:
      case RunStatus.Running:
      case RunStatus.Interrupted: {
        if (record.status === RunStatus.Running && engine.isLocal(runId)) {
          // The local execution writes the terminal checkpoint itself once its commits in flight have landed: no
          // compare-and-swap race against its own pipelined vertex commits. If it ends otherwise (it completed, or
          // lost the run), the next round sees that.
          requested = true;
          await engine.cancelLocal(runId, reason);
          continue;
        }
        const totalVertices = pinnedDefinition(engine.catalog, record)?.graph.size ?? 0;
        const cp = record.status === RunStatus.Pending ? undefined : view.checkpoint;
        const step = cancelStep({ record, now, totalVertices, cp, reason });
        const cancelled = await tryCommit(engine, buildStepCommit(step));
        if (cancelled === undefined) continue;
        engine.announce(runId);
        return { record: cancelled, idempotent: false };
      }
    }
  }
  throw new RimthanError('unavailable', 'the cancellation did not settle; try again');
}
