/**
 * Group commit for a synchronous database: writes queue up during an event-loop turn and are flushed together in ONE
 * transaction (one fsync) on the next turn. Each write runs in its own savepoint, so a refused write (a conflict)
 * rolls back alone and the rest of the batch still commits. A caller's promise settles only after the batch
 * transaction committed, so an acknowledged write is exactly as durable as with one commit per write.
 */
export interface BatchDatabase {
  /** Runs raw SQL (BEGIN, SAVEPOINT, COMMIT, ...). */
  exec(sql: string): void;
}

interface PendingWrite {
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommitWriter {
  readonly #db: BatchDatabase;
  readonly #grouped: boolean;
  #queue: PendingWrite[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  /** `grouped: false` commits every write in its own transaction (the one-commit-per-write baseline). */
  constructor(db: BatchDatabase, grouped: boolean) {
    this.#db = db;
    this.#grouped = grouped;
  }

  /** Queues `run` (synchronous SQL) and resolves with its result once its transaction committed. */
  write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#grouped) {
        this.flush();
        return;
      }
      this.#scheduled ??= setImmediate(() => {
        this.#scheduled = undefined;
        this.flush();
      });
    });
  }

  /** Writes queued but not yet committed. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Commits everything queued now (also used by close). */
  flush(): void {
    if (this.#scheduled !== undefined) {
      clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
    }
    const batch = this.#queue;
    if (batch.length === 0) return;
    this.#queue = [];
    const outcomes: Outcome[] = [];
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    try {
      for (const w of batch) outcomes.push(this.#runInSavepoint(w));
      this.#db.exec('COMMIT');
    } catch (error) {
      try {
        this.#db.exec('ROLLBACK');
      } catch {
        // The transaction is already gone (SQLite rolls back by itself on some I/O errors).
      }
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) w.reject(new Error('group commit lost a write outcome'));
      else if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  }

  #runInSavepoint(w: PendingWrite): Outcome {
    this.#db.exec('SAVEPOINT w');
    try {
      const value = w.run();
      this.#db.exec('RELEASE w');
      return { ok: true, value };
    } catch (error) {
      this.#db.exec('ROLLBACK TO w');
      this.#db.exec('RELEASE w');
      return { ok: false, error };
    }
  }
}
