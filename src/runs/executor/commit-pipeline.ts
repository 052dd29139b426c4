/**
 * The commits one execution has issued but not yet seen acknowledged (pipelining): vertex N+1 may run while vertex N's
 * commit is being made durable, and consecutive vertex commits of one run can share one store transaction.
 *
 * Why this keeps revisions gap-free and in order: the store applies one run's commits in the order they were issued
 * (RunLedger.commit), and each pipelined commit is guarded twice — compare-and-swap on the record revision its
 * predecessor will produce, and compare-and-append on the checkpoint revision after its predecessor's. Every pipelined
 * commit carries a checkpoint, so it lands only on exactly the state its predecessor left: once one commit is refused,
 * the ones after it are refused too. Nobody else can produce that state: another executor fences with its own claim
 * (a bump without a checkpoint) before it writes, and the commands that append checkpoints either end the run (cancel,
 * fail — the status machine then refuses every later commit) or only act on interrupted runs (resume).
 */
import type { Commit, RunLedger, RunRecord } from '../store/types.js';
import type { StepCommit } from './commit-builder.js';
import type { PendingCompletion } from './steps.js';

/** A refused (or failed) commit and what it was carrying; commits issued after it were refused as well. */
export interface Refusal {
  readonly error: unknown;
  readonly step: StepCommit;
  readonly pending: PendingCompletion | undefined;
}

interface InFlight {
  readonly step: StepCommit;
  readonly pending: PendingCompletion | undefined;
  readonly outcome: Promise<RunRecord | undefined>;
}

/** The record a commit will leave behind when it lands (only what building the next commit needs is exact). */
export function predictRecord(record: RunRecord, commit: Commit): RunRecord {
  const p = commit.patch;
  return {
    ...record,
    status: p.status ?? record.status,
    status_summary: p.status_summary ?? record.status_summary,
    cancel_requested: p.cancel_requested ?? record.cancel_requested,
    artifacts: p.artifacts ?? record.artifacts,
    interrupt: p.interrupt === undefined ? record.interrupt : p.interrupt,
    updated_at: p.updated_at,
    checkpoint_revision: commit.checkpoint?.revision ?? record.checkpoint_revision,
    activity_cursor: record.activity_cursor + (commit.activities?.length ?? 0),
    record_revision: record.record_revision + 1,
  };
}

export class CommitPipeline {
  readonly #store: RunLedger;
  readonly #depth: number;
  #queue: InFlight[] = [];
  #refusal: Refusal | undefined;
  #refused = false;
  #last: RunRecord | undefined;

  /** `depth`: commits allowed in flight at once (1 = each commit is acknowledged before the next vertex starts). */
  constructor(store: RunLedger, depth: number) {
    this.#store = store;
    this.#depth = depth;
  }

  /** Issues `commit` behind the ones in flight; never rejects (a refusal is kept for `settle`). */
  issue(commit: Commit, step: StepCommit, pending: PendingCompletion | undefined): void {
    const outcome = this.#store.commit(commit).then(
      (record) => {
        this.#last = record;
        return record;
      },
      (error: unknown) => {
        this.#refused = true;
        this.#refusal ??= { error, step, pending };
        return undefined;
      },
    );
    this.#queue.push({ step, pending, outcome });
  }

  /** True once any issued commit was refused (observed as soon as its outcome arrived). */
  get refused(): boolean {
    return this.#refused;
  }

  /** True when no further commit may be issued before the oldest one is acknowledged. */
  get full(): boolean {
    return this.#queue.length >= this.#depth;
  }

  /** Waits for the oldest commit in flight. */
  async waitOldest(): Promise<void> {
    const first = this.#queue.shift();
    if (first !== undefined) await first.outcome;
  }

  /**
   * Waits until every issued commit is acknowledged or refused. Returns the first refusal (and forgets it) or, when
   * everything landed, the record the last commit returned.
   */
  async settle(): Promise<{ refusal: Refusal } | { record: RunRecord | undefined }> {
    const queue = this.#queue;
    this.#queue = [];
    for (const entry of queue) await entry.outcome;
    const refusal = this.#refusal;
    this.#refusal = undefined;
    this.#refused = false;
    const last = this.#last;
    this.#last = undefined;
    return refusal === undefined ? { record: last } : { refusal };
  }
}
