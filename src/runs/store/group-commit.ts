/**
 * Group commit for a synchronous database: writes queue up during an event-loop turn and are flushed together in ONE
 * transaction (one fsync) on the next turn. Each write runs in its own savepoint, so a refused write (a conflict)
 * rolls back alone and the rest of the batch still commits. A caller's promise settles only after the batch
 * transaction committed, so an acknowledged write is exactly as durable as with one commit per write.
 *
 * A write queued with `{ sync: false }` needs no fsync of its own: it only has to become durable no later than the
 * writes that follow it (in WAL mode commits reach the disk in order, so the next synced commit carries it). A batch
 * made only of such writes commits without an fsync; any other write in the batch makes the whole batch synced. That
 * is group commit across turns, so the ungrouped mode (the naive baseline) syncs every write.
 */
export interface BatchDatabase {
  /** Runs raw SQL (BEGIN, SAVEPOINT, COMMIT, ...). */
  exec(sql: string): void;
}

export interface GroupCommitHooks {
  /** The connection's total changed rows: lets the writer count only the transactions that wrote something. */
  readonly changes?: () => number;
  /** Called when a whole batch is rolled back (whatever the writes did is gone). */
  readonly onRollback?: () => void;
  /** Switches the connection between synced commits (true, the default) and unsynced ones; called outside a batch. */
  readonly setSync?: (sync: boolean) => void;
}

export interface WriteOptions {
  /** false: this write may commit without an fsync (see the class comment). Default true. */
  readonly sync?: boolean;
}

interface PendingWrite {
  readonly run: () => unknown;
  readonly sync: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommitWriter {
  readonly #db: BatchDatabase;
  readonly #grouped: boolean;
  readonly #hooks: GroupCommitHooks;
  #queue: PendingWrite[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  #transactions = 0;

  /** `grouped: false` commits every write in its own synced transaction (the one-commit-per-write baseline). */
  constructor(db: BatchDatabase, grouped: boolean, hooks: GroupCommitHooks = {}) {
    this.#db = db;
    this.#grouped = grouped;
    this.#hooks = hooks;
  }

  /** Queues `run` (synchronous SQL) and resolves with its result once its transaction committed. */
  write<T>(run: () => T, options: WriteOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const sync = options.sync ?? true;
      this.#queue.push({ run, sync, resolve: resolve as (value: unknown) => void, reject });
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

  /** Synced batch transactions committed so far that changed rows (each one WAL fsync). */
  get transactions(): number {
    return this.#transactions;
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
    const sync = !this.#grouped || batch.some((w) => w.sync);
    const relax = !sync && this.#hooks.setSync !== undefined;
    try {
      if (relax) this.#hooks.setSync?.(false);
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    try {
      this.#commitBatch(batch, sync);
    } finally {
      if (relax) this.#hooks.setSync?.(true);
    }
  }

  #commitBatch(batch: readonly PendingWrite[], sync: boolean): void {
    const outcomes: Outcome[] = [];
    const changesBefore = this.#hooks.changes?.();
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    try {
      for (const w of batch) outcomes.push(this.#runInSavepoint(w));
      this.#db.exec('COMMIT');
      const wrote = changesBefore === undefined || this.#hooks.changes?.() !== changesBefore;
      if (sync && wrote) this.#transactions++;
    } catch (error) {
      this.#hooks.onRollback?.();
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
