/**
 * Builders shared by the run-store conformance suite: new run records, seed commits and activity entries.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../../src/core/digest.js';
import { isRimthanError } from '../../../src/core/errors.js';
import {
  ActivityKind,
  RunStatus,
  type ActivityEntry,
  type Commit,
  type NewRunRecord,
  type RunRecord,
  type RunStore,
} from '../../../src/runs/store/types.js';

export const now = (): string => new Date().toISOString();

export const INPUT_TEXT = '{"count":1}';
export const INPUT_SHA = sha256Hex(INPUT_TEXT);

/** A pending run record in `session` with fresh ids. */
export function newRun(session: string, overrides: Partial<NewRunRecord> = {}): NewRunRecord {
  const run_id = randomUUID();
  return {
    session_id: session,
    run_id,
    definition_name: 'counter_flow',
    definition_version: 'v1',
    parent_run_id: null,
    input_sha256: INPUT_SHA,
    idempotency_key: null,
    status: RunStatus.Pending,
    status_summary: '',
    cancel_requested: false,
    checkpoint_revision: -1,
    activity_cursor: 0,
    artifacts: [],
    artifact_namespace: { session_id: session, run_id, input_kind: '', input_session_id: '', input_run_id: '' },
    interrupt: null,
    created_at: now(),
    updated_at: now(),
    ...overrides,
  };
}

/** An activity entry with a fresh event id. */
export function activity(revision: number, ordinal: number, message?: string): Omit<ActivityEntry, 'run_id'> {
  return {
    revision,
    ordinal,
    event_id: randomUUID(),
    kind: revision === 0 ? ActivityKind.RunStarted : ActivityKind.VertexCompleted,
    run_status: RunStatus.Running,
    occurred_at: now(),
    ...(message === undefined ? {} : { message }),
  };
}

/** The seed commit: pending → running with checkpoint revision 0 and a run_started entry. */
export function seedCommit(run: RunRecord): Commit {
  return {
    run_id: run.run_id,
    expected_record_revision: run.record_revision,
    patch: { status: RunStatus.Running, updated_at: now() },
    checkpoint: { revision: 0, state: { step: 0 }, created_at: now() },
    activities: [activity(0, 0)],
  };
}

/** A commit appending checkpoint `revision` with `entries` activities. */
export function stepCommit(run: RunRecord, revision: number, entries: number): Commit {
  return {
    run_id: run.run_id,
    expected_record_revision: run.record_revision,
    patch: { updated_at: now() },
    checkpoint: { revision, state: { step: revision }, created_at: now() },
    activities: Array.from({ length: entries }, (_, i) => activity(revision, i)),
  };
}

/** Creates a run and commits its seed; returns the running record. */
export async function startRun(store: RunStore, session: string): Promise<RunRecord> {
  const created = await store.createRun(newRun(session));
  return store.commit(seedCommit(created));
}

/** Leases every currently claimable run to a throwaway worker for an hour, so a case sees only its own runs. */
export async function drainClaimable(store: RunStore): Promise<void> {
  const worker = `drain-${randomUUID()}`;
  while ((await store.claimRuns(worker, 3_600_000, 1000)).length === 1000) {
    // keep draining
  }
}

/** A predicate for assert.rejects: a RimthanError with `code`. */
export function rimthanCode(code: string): (error: unknown) => boolean {
  return (error) => isRimthanError(error) && error.code === code;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A queued seed (what the supervisor writes for a limited run). */
export function queuedSeed(run_id: string): Commit {
  return {
    run_id,
    expected_record_revision: 0,
    patch: { status: RunStatus.Pending, status_summary: 'queued', updated_at: now() },
    checkpoint: { revision: 0, state: { step: 0 }, created_at: now() },
    activities: [
      {
        revision: 0,
        ordinal: 0,
        event_id: randomUUID(),
        kind: ActivityKind.RunStarted,
        run_status: RunStatus.Pending,
        occurred_at: now(),
      },
    ],
  };
}
