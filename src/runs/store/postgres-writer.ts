/**
 * Group commit for the PostgreSQL store, on the shared WriteBatcher: every kind of write (commits, new records with
 * their seeds and the inputs staged for them, wake-up notifications) has its own queue, and each batch is ONE statement, so a batch costs one round trip and one WAL flush
 * however many runs it carries. Commits of one run that are queued back to back go into the same batch as one chain
 * (see canChain); a commit that cannot join its run's chain waits for the next batch, so a run's commits are still
 * applied in call order. A refused run writes nothing while the others commit (see postgres-batch-sql.ts); a batch the
 * database rejects as a whole (a unique or check violation in one run) is retried commit by commit, so only the
 * offending commit fails.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { RimthanError } from '../../core/errors.js';
import { canChain, planCommit, type PreparedCommit } from './commit-plan.js';
import { commitBatchValues, createBatchValues, type CreateRow } from './postgres-batch-sql.js';
import type { PostgresQueries } from './postgres-queries.js';
import { isUniqueViolation, rowToRun, type RunRow } from './rows.js';
import { StoreConflictError, type RunRecord, type StoreObserver } from './types.js';
import { WriteBatcher, type Outcome } from './write-batcher.js';

/** Most writes in one batch statement (bounds the statement's parameter arrays). */
const MAX_BATCH = 512;

/** Input text staged for the next create batch beyond which putInput waits for its write (see putInput). */
const MAX_STAGED_BYTES = 4 * 1024 * 1024;

interface CommitRow extends RunRow {
  new_revision: number;
  checkpoints: number;
  skipped: string[];
}

/** A named (prepared once per connection) query. */
function named(text: string, values: unknown[]): pg.QueryConfig {
  const name = `rimthan_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  return { name, text, values };
}

/** SQLSTATEs that fail one write of a batch rather than the database: unique and check violations. */
function isRowRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isUniqueViolation(error) || code === '23514';
}

function groupChains(batch: readonly PreparedCommit[]): PreparedCommit[][] {
  const byRun = new Map<string, PreparedCommit[]>();
  for (const p of batch) {
    const chain = byRun.get(p.commit.run_id);
    if (chain === undefined) byRun.set(p.commit.run_id, [p]);
    else chain.push(p);
  }
  return [...byRun.values()];
}

/** Picks each run's chainable prefix from the commit queue (the rest of that run waits for the next batch). */
function selectChains(queue: readonly PreparedCommit[]): boolean[] {
  const tails = new Map<string, { last: PreparedCommit; checkpoint: number | undefined; blocked: boolean }>();
  return queue.map((p) => {
    const runId = p.commit.run_id;
    const tail = tails.get(runId);
    const checkpoint = p.commit.checkpoint?.revision;
    if (tail === undefined) {
      tails.set(runId, { last: p, checkpoint, blocked: false });
      return true;
    }
    if (tail.blocked || !canChain(tail.last.commit, p.commit, tail.checkpoint)) {
      tail.blocked = true;
      return false;
    }
    tails.set(runId, { last: p, checkpoint: checkpoint ?? tail.checkpoint, blocked: false });
    return true;
  });
}

/** The records a chain's commits produced, from the row the batch statement returned for its run. */
function chainRecords(chain: readonly PreparedCommit[], row: CommitRow): RunRecord[] {
  const skipped = new Set(row.skipped);
  let current = rowToRun(row);
  const out: RunRecord[] = [];
  for (const p of chain) {
    const next = planCommit(current, p.commit);
    const inserted = (p.commit.activities ?? []).filter((a) => !skipped.has(a.event_id)).length;
    current = { ...next, activity_cursor: next.activity_cursor + inserted };
    out.push(current);
  }
  if (current.record_revision !== Number(row.new_revision)) {
    throw new RimthanError('internal', 'a batched commit produced an unexpected record revision');
  }
  return out;
}

/** Takes each run id and idempotency key once per batch (a duplicate waits and then conflicts on its own). */
function selectCreates(queue: readonly CreateRow[]): boolean[] {
  const seen = new Set<string>();
  return queue.map(({ record: r }) => {
    if (r === undefined) return true;
    const keys = [
      `id:${r.run_id}`,
      ...(r.idempotency_key === null ? [] : [`key:${r.session_id}:${r.idempotency_key}`]),
    ];
    if (keys.some((k) => seen.has(k))) return false;
    for (const k of keys) seen.add(k);
    return true;
  });
}

export class PostgresWriter {
  readonly #pool: pg.Pool;
  readonly #sql: PostgresQueries;
  readonly #observer: StoreObserver | undefined;
  readonly commits: WriteBatcher<PreparedCommit, RunRecord>;
  readonly creates: WriteBatcher<CreateRow, RunRecord | undefined>;
  /** Inputs put but not yet written (digest → canonical text); every batch of `creates` writes them. */
  readonly #staged = new Map<string, string>();
  #stagedBytes = 0;
  /** Run ids to announce on `channel`: one unsynced NOTIFY statement per batch (see NOTIFY_BATCH_SQL). */
  readonly notices: WriteBatcher<string, void>;

  constructor(pool: pg.Pool, sql: PostgresQueries, channel: string, observer: StoreObserver | undefined) {
    this.#pool = pool;
    this.#sql = sql;
    this.#observer = observer;
    this.commits = new WriteBatcher((b) => this.#timed(b.length, () => this.#writeCommits(b)), {
      maxBatch: MAX_BATCH,
      select: selectChains,
    });
    this.creates = new WriteBatcher((b) => this.#writeCreates(b), { maxBatch: MAX_BATCH, select: selectCreates });
    this.notices = new WriteBatcher((b) => this.#writeNotices(channel, b), { maxBatch: MAX_BATCH });
  }

  /** Waits until every queued write has been written. */
  async drain(): Promise<void> {
    await Promise.all([this.commits.drain(), this.creates.drain(), this.notices.drain()]);
  }

  async #timed<T>(writes: number, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    let ok = false;
    try {
      const result = await work();
      ok = true;
      return result;
    } finally {
      try {
        this.#observer?.commitBatch?.({ writes, durationMs: performance.now() - start, ok });
      } catch {
        // An observer's fault is its own.
      }
    }
  }

  async #writeCommits(batch: readonly PreparedCommit[]): Promise<Outcome<RunRecord>[]> {
    const chains = groupChains(batch);
    let rows: CommitRow[];
    try {
      rows = (await this.#pool.query<CommitRow>(named(this.#sql.commitBatch, commitBatchValues(chains)))).rows;
    } catch (error) {
      if (!isRowRefusal(error) || batch.length === 1) {
        const refusal = isUniqueViolation(error)
          ? new StoreConflictError('checkpoint or activity position already taken')
          : error;
        return batch.map(() => ({ ok: false, error: refusal }));
      }
      return this.#oneByOne(batch);
    }
    const byRun = new Map(rows.map((row) => [row.run_id, row]));
    const refused = chains.filter((chain) => !byRun.has((chain[0] as PreparedCommit).commit.run_id));
    const reasons = refused.length === 0 ? new Map<string, unknown>() : await this.#refusals(refused);
    const outcomes = new Map<PreparedCommit, Outcome<RunRecord>>();
    for (const chain of chains) {
      const row = byRun.get((chain[0] as PreparedCommit).commit.run_id);
      if (row === undefined) {
        const reason = reasons.get((chain[0] as PreparedCommit).commit.run_id);
        chain.forEach((p, i) =>
          outcomes.set(p, {
            ok: false,
            error: i === 0 ? reason : new StoreConflictError('an earlier commit of this run was refused'),
          }),
        );
        continue;
      }
      const records = chainRecords(chain, row);
      chain.forEach((p, i) => outcomes.set(p, { ok: true, value: records[i] as RunRecord }));
    }
    return batch.map((p) => outcomes.get(p) ?? { ok: false, error: new Error('a batched commit lost its outcome') });
  }

  /** After a batch the database refused as a whole: each commit alone, in order, so only the offending one fails. */
  async #oneByOne(batch: readonly PreparedCommit[]): Promise<Outcome<RunRecord>[]> {
    const outcomes: Outcome<RunRecord>[] = [];
    for (const p of batch) {
      const [outcome] = await this.#writeCommits([p]);
      outcomes.push(outcome ?? { ok: false, error: new Error('a commit lost its outcome') });
    }
    return outcomes;
  }

  /** Why each refused chain's head was refused, decided from the run as it is now (not_found, conflict, ...). */
  async #refusals(chains: readonly PreparedCommit[][]): Promise<Map<string, unknown>> {
    const ids = chains.map((c) => (c[0] as PreparedCommit).commit.run_id);
    const rows = (await this.#pool.query<RunRow>(named(this.#sql.runsByIds, [ids]))).rows;
    const current = new Map(rows.map((row) => [row.run_id, rowToRun(row)]));
    const reasons = new Map<string, unknown>();
    for (const chain of chains) {
      const head = (chain[0] as PreparedCommit).commit;
      const record = current.get(head.run_id);
      if (record === undefined) {
        reasons.set(head.run_id, new RimthanError('not_found', 'run not found'));
        continue;
      }
      try {
        planCommit(record, head);
        reasons.set(head.run_id, new StoreConflictError('run record changed since it was read'));
      } catch (error) {
        reasons.set(head.run_id, error);
      }
    }
    return reasons;
  }

  /**
   * Stages an input: the next batch of `creates` writes it (with the start that refers to it, when that start is
   * queued by then), so a start pays no round trip of its own for its input. Until it is written, `stagedInput` answers
   * for it. Beyond MAX_STAGED_BYTES (the database is failing or slow) the caller waits for the write instead.
   */
  async putInput(sha256: string, canonical: string): Promise<void> {
    if (this.#staged.has(sha256)) return;
    this.#staged.set(sha256, canonical);
    this.#stagedBytes += canonical.length;
    const written = this.creates.submit({});
    if (this.#stagedBytes > MAX_STAGED_BYTES) await written;
    else written.catch(() => undefined); // still staged: the next batch writes it, and a start in it fails alone
  }

  /** An input put but not yet written. */
  stagedInput(sha256: string): string | undefined {
    return this.#staged.get(sha256);
  }

  /**
   * New records, each with its seed when it has one, and the staged inputs, in ONE statement (one WAL flush for the
   * whole batch of starts). A batch the database rejects as a whole is retried record by record, so only the offending
   * start fails.
   */
  async #writeCreates(batch: readonly CreateRow[]): Promise<Outcome<RunRecord | undefined>[]> {
    const inputs = new Map(this.#staged);
    let rows: RunRow[];
    try {
      rows = (await this.#pool.query<RunRow>(named(this.#sql.createRuns, createBatchValues(batch, inputs)))).rows;
      for (const [sha256, canonical] of inputs) {
        if (this.#staged.delete(sha256)) this.#stagedBytes -= canonical.length;
      }
    } catch (error) {
      if (!isRowRefusal(error)) throw error;
      if (batch.length > 1) {
        const outcomes: Outcome<RunRecord | undefined>[] = [];
        for (const item of batch) outcomes.push(...(await this.#writeCreates([item])));
        return outcomes;
      }
      const refusal = isUniqueViolation(error)
        ? new StoreConflictError('checkpoint or activity position already taken')
        : error;
      return [{ ok: false, error: refusal }];
    }
    const created = new Map(rows.map((row) => [row.run_id, rowToRun(row)]));
    return batch.map(({ record: r }) => {
      if (r === undefined) return { ok: true, value: undefined };
      const record = created.get(r.run_id);
      return record !== undefined
        ? { ok: true, value: record }
        : { ok: false, error: new StoreConflictError('run id or idempotency key already exists') };
    });
  }

  async #writeNotices(channel: string, batch: readonly string[]): Promise<Outcome<void>[]> {
    await this.#pool.query(named(this.#sql.notifyMany, [channel, [...new Set(batch)]]));
    return batch.map(() => ({ ok: true, value: undefined }));
  }
}
