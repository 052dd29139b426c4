/**
 * Restart from a step: an operator re-runs a failed or interrupted run from a vertex it completed before. One commit
 * appends a new checkpoint holding the state that vertex started from (the checkpoint just before its latest
 * completion), continuing at it; every earlier revision and history entry stays as it was, and a `run_resumed` entry
 * says what happened. A failed run is reopened (Commit.reopen), the one way out of `failed`; cancelled and completed
 * runs stay final. The restarted vertex and those after it run again, with new idempotency keys.
 */
import { RimthanError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import { decodeCheckpoint } from '../executor/checkpoint-state.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { pinnedDefinition } from '../executor/run-loader.js';
import type { FlowCatalog } from '../flow/catalog.js';
import {
  ActivityKind,
  RunStatus,
  StoreConflictError,
  type RunLedger,
  type RunQueue,
  type RunRecord,
} from '../store/types.js';
import { runConflict, unknownDefinition } from '../supervisor/errors.js';
import { operatorView } from './run-view.js';

export interface RestartRequest {
  readonly runId: string;
  /** When set, the run must belong to this session. */
  readonly sessionId?: string;
  /** The vertex to run again (its latest completion is the restart point). */
  readonly fromVertex: string;
}

/** The revision of the latest `vertex_completed` entry of `vertex`, reading the history page by page. */
async function latestCompletion(store: RunLedger, runId: string, vertex: string): Promise<number | undefined> {
  let found: number | undefined;
  let after: { after_revision: number; after_event_id: string } | undefined;
  for (;;) {
    const page = await store.history(runId, { limit: 1000, ...(after ?? {}) });
    for (const e of page) if (e.kind === ActivityKind.VertexCompleted && e.vertex_id === vertex) found = e.revision;
    const last = page[page.length - 1];
    if (page.length < 1000 || last === undefined) return found;
    after = { after_revision: last.revision, after_event_id: last.event_id };
  }
}

/** Restarts a failed or interrupted run at `fromVertex`; returns the record after the commit (status running). */
export async function restartRun(
  store: RunLedger & RunQueue,
  catalog: FlowCatalog,
  clock: Clock,
  request: RestartRequest,
): Promise<RunRecord> {
  for (let i = 0; i < 4; i++) {
    const { record, checkpoint } = await operatorView(store, request.runId, request.sessionId);
    if (record.status !== RunStatus.Failed && record.status !== RunStatus.Interrupted) {
      throw runConflict(`run is ${record.status}; only a failed or interrupted run can be restarted`);
    }
    if (record.cancel_requested) throw runConflict('run is being cancelled');
    const def = pinnedDefinition(catalog, record);
    if (def === undefined) throw unknownDefinition(record);
    const vertex = def.graph.vertices.get(request.fromVertex);
    if (vertex === undefined) {
      throw new RimthanError(
        'invalid_arguments',
        `${request.fromVertex} is not a vertex of ${def.name}@${def.version}`,
      );
    }
    const revision = await latestCompletion(store, record.run_id, vertex.id);
    if (revision === undefined) throw runConflict(`vertex ${vertex.id} never completed in this run`);
    const stored = await store.checkpointAt(record.run_id, revision - 1);
    const before = stored === undefined ? undefined : decodeCheckpoint(stored.state);
    if (before === undefined || before.next_vertex !== vertex.id) {
      throw runConflict(`the state before ${vertex.id} (revision ${revision - 1}) is not readable`);
    }
    const message = `restarted from ${vertex.label} by an operator, with the state of revision ${revision - 1}`;
    // The vertex runs afresh: whatever it waited for before (timers, events, child runs) is not carried over.
    const { waits: _waits, ...fresh } = before;
    const step = {
      record,
      now: clock.now().toISOString(),
      totalVertices: def.graph.size,
      patch: { status: RunStatus.Running, status_summary: message, interrupt: null },
      checkpoint: {
        ...fresh,
        status: RunStatus.Running,
        attempt: 0,
        resume: null,
        steps: checkpoint?.steps ?? before.steps,
      },
      activities: [
        {
          kind: ActivityKind.RunResumed,
          run_status: RunStatus.Running,
          vertex: { id: vertex.id, label: vertex.label },
          message,
        },
      ],
    };
    const commit = buildStepCommit(step);
    try {
      const restarted = await store.commit(record.status === RunStatus.Failed ? { ...commit, reopen: true } : commit);
      await store.notify(record.run_id).catch(() => undefined);
      return restarted;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw runConflict('run changed while it was being restarted');
}
