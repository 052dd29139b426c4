/**
 * Cancel: already cancelled → idempotent (nothing written); completed or failed → conflict; pending → cancelled at once;
 * running here → the local executor halts and appends the terminal checkpoint (cancel_requested set, the reason as
 * summary) after its commits in flight; running elsewhere → the request is recorded first (RunStore.requestCancel),
 * then this call or the executing worker appends the terminal checkpoint, whichever comes first; interrupted → this
 * call appends it, and compare-and-swap fences any other owner out.
 */
import { RimthanError } from '../../core/errors.js';
import { cancelChildren, wakeParentOf } from '../executor/child-runs.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadRunView, pinnedDefinition } from '../executor/run-loader.js';
import { MAX_MESSAGE_BYTES } from '../executor/text.js';
import { cancelStep } from '../executor/steps.js';
import { RunStatus, StoreConflictError, type RunRecord } from '../store/types.js';
import { runConflict, runNotFound } from './errors.js';
import { promoteAfterEnd } from './concurrency.js';
import type { EngineHandle } from './types.js';

const MAX_TRIES = 16;
/** Back-off after losing to the executing worker: 5, 10, 20, … ms, at most 250 ms (about 2.5 s over every try). */
const RETRY_BASE_MS = 5;
const RETRY_MAX_MS = 250;
export const DEFAULT_CANCEL_REASON = 'cancel requested';

/** Bounds (before trimming) and trims a cancel reason; blank becomes "cancel requested". */
export function normalizeCancelReason(reason: string): string {
  if (typeof reason !== 'string' || Buffer.byteLength(reason, 'utf8') > MAX_MESSAGE_BYTES) {
    throw new RimthanError('invalid_arguments', `reason must be a string of at most ${MAX_MESSAGE_BYTES} bytes`);
  }
  const trimmed = reason.trim();
  return trimmed.length === 0 ? DEFAULT_CANCEL_REASON : trimmed;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
        if (record.status === RunStatus.Running && !record.cancel_requested) {
          // Executing elsewhere (or by a worker that died): record the request first. It needs no compare-and-swap,
          // so a worker committing vertex after vertex cannot outrun it; that worker's next commit then fails, and it
          // rereads and ends the run itself, while the wake-up aborts a vertex in flight.
          requested = true;
          await engine.store.requestCancel(runId, reason, now);
          engine.announce(runId);
          continue;
        }
        const totalVertices = pinnedDefinition(engine.catalog, record)?.graph.size ?? 0;
        const cp = view.checkpoint;
        const step = cancelStep({ record, now, totalVertices, cp, reason });
        const cancelled = await tryCommit(engine, buildStepCommit(step));
        if (cancelled === undefined) {
          // Lost to the executing worker, which is ending the run itself: give it a moment before rereading.
          if (record.cancel_requested) await sleep(Math.min(RETRY_BASE_MS * 2 ** i, RETRY_MAX_MS));
          continue;
        }
        engine.announce(runId);
        // Written here, not by an executor: this call takes the run's children down with it and tells its parent.
        await cancelChildren(engine, runId, () => undefined);
        await wakeParentOf(engine.store, cancelled);
        await promoteAfterEnd(engine, cancelled);
        return { record: cancelled, idempotent: false };
      }
    }
  }
  throw new RimthanError('unavailable', 'the cancellation did not settle; try again');
}
