/**
 * Retention on SQLite (see RunRetention): reads run directly, each batch of deletions is ONE write of the store's single
 * writer (its own savepoint in a group-commit transaction), so no commit, cancel request or event can interleave with
 * a half-deleted run. A run is deleted with its events, activity history and checkpoints (its idempotency key is a
 * column of its record), and its canonical input when no remaining run refers to it. The record cache is cleared after
 * a deletion, so a late commit on a pruned run reads the row (gone) and is answered `not_found`.
 */
import type Database from 'better-sqlite3';
import type { GroupCommitWriter } from './group-commit.js';
import type { RecordCache } from './record-cache.js';
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
import { settle } from './settle.js';
import { observe } from './observe.js';

/** The four shapes of a bound (age, count, both, neither), as a key of prepared statements. */
function shape(bound: DueBound): number {
  return (bound.before === undefined ? 0 : 1) + (bound.cutoff === undefined ? 0 : 2);
}

/** The named parameters of a bound. */
function boundParams(bound: DueBound): Record<string, string | number> {
  return {
    ...(bound.before === undefined ? {} : { before: bound.before }),
    ...(bound.cutoff === undefined ? {} : { cut_at: bound.cutoff.at, cut_seq: bound.cutoff.seq }),
  };
}

function prepareRetentionStatements(db: Database.Database) {
  const due = (s: number): string =>
    `FROM runs r WHERE r.definition_name = @name AND ${FINISHED}${boundCondition(
      { before: s & 1 ? '' : undefined, cutoff: s & 2 ? { at: '', seq: 0 } : undefined },
      (name) => `@${name}`,
    )}
      AND ${prunableCondition('runs')}`;
  const shapes = [0, 1, 2, 3];
  return {
    nthNewest: db.prepare(
      `SELECT updated_at AS at, created_seq AS seq FROM runs WHERE definition_name = ? AND ${FINISHED}
        ORDER BY updated_at DESC, created_seq DESC LIMIT 1 OFFSET ?`,
    ),
    count: shapes.map((s) => db.prepare(`SELECT count(*) ${due(s)}`).pluck()),
    due: shapes.map((s) =>
      db.prepare(`SELECT r.run_id, r.input_sha256 ${due(s)} ORDER BY r.updated_at, r.created_seq LIMIT @limit`),
    ),
    deleteEvents: db.prepare('DELETE FROM run_events WHERE run_id = ?'),
    deleteActivities: db.prepare('DELETE FROM activities WHERE run_id = ?'),
    deleteCheckpoints: db.prepare('DELETE FROM checkpoints WHERE run_id = ?'),
    deleteRun: db.prepare(`DELETE FROM runs WHERE run_id = ? AND ${FINISHED}`),
    deleteInput: db.prepare(
      'DELETE FROM inputs WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM runs WHERE input_sha256 = ?)',
    ),
    nextFinished: db.prepare(`SELECT min(definition_name) FROM runs WHERE ${FINISHED} AND definition_name > ?`).pluck(),
  };
}

/** The RunRetention role of the SQLite store, over its open database, writer and record cache. */
export class SqliteRetention implements RetentionBackend {
  readonly #sql: ReturnType<typeof prepareRetentionStatements>;
  readonly #writer: GroupCommitWriter;
  readonly #cache: RecordCache;
  readonly #observer: StoreObserver | undefined;

  constructor(db: Database.Database, writer: GroupCommitWriter, cache: RecordCache, observer?: StoreObserver) {
    this.#sql = prepareRetentionStatements(db);
    this.#writer = writer;
    this.#cache = cache;
    this.#observer = observer;
  }

  async pruneRuns(query: PruneQuery): Promise<PruneResult> {
    return pruneFlows(this, checkPruneQuery(query));
  }

  finishedDefinitions(): Promise<string[]> {
    return listFinished(this);
  }

  nthNewest(name: string, nth: number): Promise<FinishPlace | undefined> {
    return settle(() => {
      const row = this.#sql.nthNewest.get(name, nth - 1) as { at: string; seq: number } | undefined;
      return row === undefined ? undefined : { at: row.at, seq: Number(row.seq) };
    });
  }

  countDue(name: string, bound: DueBound): Promise<number> {
    return settle(() => Number(this.#sql.count[shape(bound)]?.get({ name, ...boundParams(bound) })));
  }

  async deleteDue(name: string, bound: DueBound, limit: number): Promise<{ runs: number; inputs: number }> {
    const sql = this.#sql;
    const select = sql.due[shape(bound)];
    if (select === undefined) throw new Error('unreachable: a bound has four shapes');
    const done = await this.#writer.write(() => {
      const rows = select.all({ name, limit, ...boundParams(bound) }) as { run_id: string; input_sha256: string }[];
      let runs = 0;
      for (const { run_id } of rows) {
        sql.deleteEvents.run(run_id);
        sql.deleteActivities.run(run_id);
        sql.deleteCheckpoints.run(run_id);
        runs += sql.deleteRun.run(run_id).changes;
      }
      let inputs = 0;
      for (const digest of new Set(rows.map((r) => r.input_sha256))) {
        inputs += sql.deleteInput.run(digest, digest).changes;
      }
      if (runs > 0) this.#cache.clear();
      return { runs, inputs };
    });
    if (done.runs > 0) observe(() => this.#observer?.pruned?.({ definition_name: name, runs: done.runs }));
    return done;
  }

  nextFinished(after: string): Promise<string | undefined> {
    return settle(() => (this.#sql.nextFinished.get(after) as string | null) ?? undefined);
  }
}
