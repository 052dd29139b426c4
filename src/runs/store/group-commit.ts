/**
 * Group commit for a synchronous database (SQLite): writes queue up during an event-loop turn (the shared WriteBatcher)
 * and are flushed together in ONE transaction (one fsync) on the next turn. Each write runs in its own savepoint, so a refused write (a conflict)
 * rolls back alone and the rest of the batch still commits. A caller's promise settles only after the batch
 * transaction committed, so an acknowledged write is exactly as durable as with one commit per write.
 *
 * A write queued with `{ sync: false }` needs no fsync of its own: it only has to become durable no later than the
 * writes that follow it (in WAL mode commits reach the disk in order, so the next synced commit carries it). A batch
 * made only of such writes commits without an fsync; any other write in the batch makes the whole batch synced. That
 * is group commit across turns, so the ungrouped mode (the naive baseline) syncs every write.
 */
import { WriteBatcher, type Outcome } from './write-batcher.js';

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
  /** Told after each batch transaction: how many writes it carried, how long it took, whether it committed. */
  readonly onBatch?: (writes: number, durationMs: number, ok: boolean) => void;
}

export interface WriteOptions {
  /** false: this write may commit without an fsync (see the class comment). Default true. */
  readonly sync?: boolean;
}

interface QueuedWrite {
  readonly run: () => unknown;
  readonly sync: boolean;
}

export class GroupCommitWriter {
  readonly #db: BatchDatabase;
  readonly #grouped: boolean;
  readonly #hooks: GroupCommitHooks;
  readonly #batcher: WriteBatcher<QueuedWrite, unknown>;
  #transactions = 0;

  /** `grouped: false` commits every write in its own synced transaction (the one-commit-per-write baseline). */
  constructor(db: BatchDatabase, grouped: boolean, hooks: GroupCommitHooks = {}) {
    this.#db = db;
    this.#grouped = grouped;
    this.#hooks = hooks;
    this.#batcher = new WriteBatcher((batch) => this.#flushBatch(batch), { grouped });
  }

  /** Queues `run` (synchronous SQL) and resolves with its result once its transaction committed. */
  write<T>(run: () => T, options: WriteOptions = {}): Promise<T> {
    return this.#batcher.submit({ run, sync: options.sync ?? true }) as Promise<T>;
  }

  /** Synced batch transactions committed so far that changed rows (each one WAL fsync). */
  get transactions(): number {
    return this.#transactions;
  }

  /** Writes queued but not yet committed. */
  get pending(): number {
    return this.#batcher.pending;
  }

  /** Commits everything queued now (also used by close). */
  flush(): void {
    this.#batcher.flush();
  }

  #flushBatch(batch: readonly QueuedWrite[]): Outcome<unknown>[] {
    const sync = !this.#grouped || batch.some((w) => w.sync);
    const relax = !sync && this.#hooks.setSync !== undefined;
    if (relax) this.#hooks.setSync?.(false);
    const start = performance.now();
    let ok = false;
    try {
      const outcomes = this.#commitBatch(batch, sync);
      ok = true;
      return outcomes;
    } finally {
      if (relax) this.#hooks.setSync?.(true);
      try {
        this.#hooks.onBatch?.(batch.length, performance.now() - start, ok);
      } catch {
        // An observer's fault is its own.
      }
    }
  }

  #commitBatch(batch: readonly QueuedWrite[], sync: boolean): Outcome<unknown>[] {
    const outcomes: Outcome<unknown>[] = [];
    const changesBefore = this.#hooks.changes?.();
    this.#db.exec('BEGIN IMMEDIATE');
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
      throw error;
    }
    return outcomes;
  }

  #runInSavepoint(w: QueuedWrite): Outcome<unknown> {
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
