/**
 * The queue under both stores' group commit: writes submitted while the store is idle are collected for one event-loop
 * turn, writes submitted while a batch is being written wait for it, and each batch goes to the backend's `flush` in
 * one piece (SQLite: one transaction; PostgreSQL: one statement). `flush` returns one outcome per write, in order, so a
 * refused write fails alone; a caller's promise settles only when its batch is durable (or refused).
 *
 * At most one batch is in flight at a time: the next one starts as soon as the previous one settled, so under load the
 * batches grow by themselves and every durable commit (one fsync) carries as many writes as arrived meanwhile.
 */

export type Outcome<O> = { readonly ok: true; readonly value: O } | { readonly ok: false; readonly error: unknown };

/** Writes one batch; returns one outcome per item (synchronously for SQLite, as a promise for PostgreSQL). */
export type BatchFlush<I, O> = (batch: readonly I[]) => readonly Outcome<O>[] | Promise<readonly Outcome<O>[]>;

interface Pending<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

export interface WriteBatcherOptions<I> {
  /** false: every write is flushed alone at once (the one-commit-per-write baseline). Default true. */
  readonly grouped?: boolean;
  /** Most writes in one batch (default unbounded). */
  readonly maxBatch?: number;
  /**
   * Picks the writes that go into the next batch from the queue (in order); the rest stay queued, in order, for the
   * batch after it (the first write is always taken). Default: the first `maxBatch`.
   */
  readonly select?: (queue: readonly I[]) => readonly boolean[];
}

export class WriteBatcher<I, O> {
  readonly #flush: BatchFlush<I, O>;
  readonly #grouped: boolean;
  readonly #maxBatch: number;
  readonly #select: ((queue: readonly I[]) => readonly boolean[]) | undefined;
  #queue: Pending<I, O>[] = [];
  #scheduled: NodeJS.Immediate | undefined;
  #inFlight: Promise<void> | undefined;

  constructor(flush: BatchFlush<I, O>, options: WriteBatcherOptions<I> = {}) {
    this.#flush = flush;
    this.#grouped = options.grouped ?? true;
    this.#maxBatch = options.maxBatch ?? Number.POSITIVE_INFINITY;
    this.#select = options.select;
  }

  /** Queues `item`; resolves with its outcome once its batch was written. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#grouped) this.flush();
      else if (this.#inFlight === undefined) this.#scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Writes queued but not yet handed to `flush`. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Hands the queue to `flush` now (unless a batch is in flight: the queue then follows it). */
  flush(): void {
    if (this.#scheduled !== undefined) {
      clearImmediate(this.#scheduled);
      this.#scheduled = undefined;
    }
    while (this.#queue.length > 0 && this.#inFlight === undefined) {
      const batch = this.#take();
      let result: readonly Outcome<O>[] | Promise<readonly Outcome<O>[]>;
      try {
        result = this.#flush(batch.map((p) => p.item));
      } catch (error) {
        for (const p of batch) p.reject(error);
        continue;
      }
      if (!(result instanceof Promise)) {
        settle(batch, result);
        continue;
      }
      this.#inFlight = result.then(
        (outcomes) => settle(batch, outcomes),
        (error: unknown) => {
          for (const p of batch) p.reject(error);
        },
      );
      void this.#inFlight.finally(() => {
        this.#inFlight = undefined;
        this.flush();
      });
    }
  }

  /** Resolves once everything queued so far has been written (used by close). */
  async drain(): Promise<void> {
    this.flush();
    while (this.#inFlight !== undefined || this.#queue.length > 0) {
      await this.#inFlight;
      this.flush();
      if (this.#inFlight === undefined && this.#queue.length > 0) await new Promise((r) => setImmediate(r));
    }
  }

  #take(): Pending<I, O>[] {
    const queue = this.#queue;
    if (this.#select === undefined) {
      const batch = queue.splice(0, Math.min(queue.length, this.#maxBatch));
      return batch;
    }
    const chosen = this.#select(queue.map((p) => p.item));
    const batch: Pending<I, O>[] = [];
    const rest: Pending<I, O>[] = [];
    queue.forEach((p, i) => {
      const take = (chosen[i] === true || (i === 0 && chosen[0] !== true)) && batch.length < this.#maxBatch;
      (take ? batch : rest).push(p);
    });
    this.#queue = rest;
    return batch;
  }
}

function settle<I, O>(batch: readonly Pending<I, O>[], outcomes: readonly Outcome<O>[]): void {
  batch.forEach((p, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) p.reject(new Error('a batched write lost its outcome'));
    else if (outcome.ok) p.resolve(outcome.value);
    else p.reject(outcome.error);
  });
}
