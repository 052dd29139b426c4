/**
 * Retention on PostgreSQL (see RunRetention). Each batch is ONE statement: it deletes the due runs it selected,
 * checking again under the row locks that each is still finished and has no unfinished child or parent (a run
 * restarted meanwhile is kept), together with their events, activity history and checkpoints. Engine writes never touch
 * a finished run, so no group commit in flight can meet a half-deleted one; a late commit, cancel request or event finds
 * the run gone (`not_found`).
 *
 * Inputs are shared by digest, so they go in a second short transaction: it locks the pruned runs' inputs FOR UPDATE
 * SKIP LOCKED (a create batch writing a run that refers to one holds a KEY SHARE lock on it: see createBatchSql), then,
 * in a later statement whose snapshot sees every start committed before the lock, deletes those no run refers to. The
 * input lock never waits; the run DELETE may wait briefly for a run row another writer holds (an event being sent to
 * it), never for an input, so a prune cannot deadlock with the create batches.
 */
import type pg from 'pg';
import { withTransaction } from '../../postgres/index.js';
import {
  boundCondition,
  checkPruneQuery,
  FINISHED,
  listFinished,
  prunableCondition,
  pruneFlows,
  type DueBound,
  type FinishPlace,
  type RetentionBackend,
} from './retention.js';
import type { PruneQuery, PruneResult, StoreObserver } from './types.js';
import { observe } from './observe.js';

/** A bound's SQL and its values after the flow name ($1), the limit last. */
function boundSql(bound: DueBound): { where: string; values: unknown[] } {
  const values: unknown[] = [];
  const where = boundCondition(bound, (name) => {
    values.push(name === 'before' ? bound.before : name === 'cut_at' ? bound.cutoff?.at : bound.cutoff?.seq);
    return name === 'cut_seq' ? `$${values.length + 1}::bigint` : `$${values.length + 1}`;
  });
  return { where, values };
}

function retentionQueries(q: string) {
  const due = (where: string): string =>
    `FROM ${q}.runs r WHERE r.definition_name = $1 AND ${FINISHED}${where}
      AND ${prunableCondition(`${q}.runs`)}`;
  const doomed = (where: string, limit: number): string => `WITH picked AS (
      SELECT r.run_id ${due(where)} ORDER BY r.updated_at, r.created_seq LIMIT $${limit}
    ),
    doomed AS (
      DELETE FROM ${q}.runs r WHERE r.run_id IN (SELECT run_id FROM picked) AND ${FINISHED}
        AND ${prunableCondition(`${q}.runs`)}
      RETURNING r.run_id, r.input_sha256
    ),
    ev AS (DELETE FROM ${q}.run_events WHERE run_id IN (SELECT run_id FROM doomed)),
    ac AS (DELETE FROM ${q}.activities WHERE run_id IN (SELECT run_id FROM doomed)),
    cp AS (DELETE FROM ${q}.checkpoints WHERE run_id IN (SELECT run_id FROM doomed))
    SELECT run_id, input_sha256 FROM doomed`;
  return {
    nthNewest: `SELECT updated_at AS at, created_seq AS seq FROM ${q}.runs WHERE definition_name = $1 AND ${FINISHED}
      ORDER BY updated_at DESC, created_seq DESC LIMIT 1 OFFSET $2`,
    count: (where: string) => `SELECT count(*)::int AS n ${due(where)}`,
    delete: doomed,
    lockInputs: `SELECT sha256 FROM ${q}.inputs WHERE sha256 = ANY($1::text[]) ORDER BY sha256 FOR UPDATE SKIP LOCKED`,
    deleteInputs: `DELETE FROM ${q}.inputs i WHERE i.sha256 = ANY($1::text[])
      AND NOT EXISTS (SELECT 1 FROM ${q}.runs r WHERE r.input_sha256 = i.sha256)`,
    nextFinished: `SELECT min(definition_name) AS name FROM ${q}.runs WHERE ${FINISHED} AND definition_name > $1`,
  } as const;
}

/** The RunRetention role of the PostgreSQL store, over its pool and (quoted) schema. */
export class PostgresRetention implements RetentionBackend {
  readonly #sql: ReturnType<typeof retentionQueries>;
  readonly #pool: () => pg.Pool;
  readonly #observer: StoreObserver | undefined;

  constructor(pool: () => pg.Pool, quotedSchema: string, observer?: StoreObserver) {
    this.#pool = pool;
    this.#sql = retentionQueries(quotedSchema);
    this.#observer = observer;
  }

  async pruneRuns(query: PruneQuery): Promise<PruneResult> {
    const checked = checkPruneQuery(query);
    this.#pool(); // a closed store refuses before anything is read
    return pruneFlows(this, checked);
  }

  async finishedDefinitions(): Promise<string[]> {
    this.#pool();
    return listFinished(this);
  }

  async nthNewest(name: string, nth: number): Promise<FinishPlace | undefined> {
    const result = await this.#pool().query<{ at: string; seq: string }>(this.#sql.nthNewest, [name, nth - 1]);
    const row = result.rows[0];
    return row === undefined ? undefined : { at: row.at, seq: Number(row.seq) };
  }

  async countDue(name: string, bound: DueBound): Promise<number> {
    const { where, values } = boundSql(bound);
    const result = await this.#pool().query<{ n: number }>(this.#sql.count(where), [name, ...values]);
    return Number(result.rows[0]?.n ?? 0);
  }

  async deleteDue(name: string, bound: DueBound, limit: number): Promise<{ runs: number; inputs: number }> {
    const pool = this.#pool();
    const { where, values } = boundSql(bound);
    const result = await pool.query<{ run_id: string; input_sha256: string }>(
      this.#sql.delete(where, values.length + 2),
      [name, ...values, limit],
    );
    const runs = result.rows.length;
    if (runs > 0) observe(() => this.#observer?.pruned?.({ definition_name: name, runs }));
    const digests = [...new Set(result.rows.map((r) => r.input_sha256))];
    const inputs = digests.length === 0 ? 0 : await this.#deleteInputs(pool, digests);
    return { runs, inputs };
  }

  /** Deletes the inputs among `digests` that no run refers to (see the file comment). */
  async #deleteInputs(pool: pg.Pool, digests: readonly string[]): Promise<number> {
    return withTransaction(pool, async (client) => {
      const locked = (await client.query<{ sha256: string }>(this.#sql.lockInputs, [digests])).rows.map(
        (r) => r.sha256,
      );
      if (locked.length === 0) return 0;
      return (await client.query(this.#sql.deleteInputs, [locked])).rowCount ?? 0;
    });
  }

  async nextFinished(after: string): Promise<string | undefined> {
    const row = (await this.#pool().query<{ name: string | null }>(this.#sql.nextFinished, [after])).rows[0];
    return row?.name ?? undefined;
  }
}
