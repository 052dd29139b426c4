/**
 * Concurrency slots on SQLite (see RunConcurrency). Admission and promotion each run in one turn of the store's single
 * writer, inside its write transaction: SQLite lets one writer at a time into the file, so counting a key's holders and
 * writing the run that takes (or waits for) its slot can never interleave with another admission, on this process or
 * on another one sharing the file.
 */
import type Database from 'better-sqlite3';
import { RimthanError } from '../../core/errors.js';
import type { PreparedCommit } from './commit-plan.js';
import {
  ADMITTED_SUMMARY,
  checkLimitedSeed,
  checkSlot,
  checkSweepLimit,
  HOLDS_SLOT,
  sweepKeysSql,
  limitedSeed,
  WAITS_FOR_SLOT,
} from './concurrency-plan.js';
import type { GroupCommitWriter } from './group-commit.js';
import { WAIT_FOREVER, type Commit, type ConcurrencySlot, type NewRunRecord, type RunRecord } from './types.js';
import { checkRunId } from './validate.js';

/** The store's own writes a limited start is made of (the same as an ordinary createRun and commit). */
export interface SqliteSlotWrites {
  /** Inserts a new unseeded record; a duplicate run id or idempotency key throws StoreConflictError. */
  insertRun(record: NewRunRecord): void;
  /** Applies a prepared commit (compare-and-swap, status machine, checkpoint, activities) and returns the record. */
  apply(prepared: PreparedCommit): RunRecord;
}

function prepareSlotStatements(db: Database.Database) {
  return {
    runSlot: db.prepare('SELECT definition_name, slot_key FROM runs WHERE run_id = ?'),
    upsertKey: db.prepare(
      `INSERT INTO run_slot_keys (definition_name, slot_key, slot_limit) VALUES (?, ?, ?)
       ON CONFLICT (definition_name, slot_key) DO UPDATE SET slot_limit = excluded.slot_limit`,
    ),
    keyLimit: db.prepare('SELECT slot_limit FROM run_slot_keys WHERE definition_name = ? AND slot_key = ?').pluck(),
    dropKey: db.prepare('DELETE FROM run_slot_keys WHERE definition_name = ? AND slot_key = ?'),
    holders: db
      .prepare(`SELECT count(*) FROM runs WHERE definition_name = ? AND slot_key = ? AND ${HOLDS_SLOT}`)
      .pluck(),
    waiters: db
      .prepare(
        `SELECT run_id FROM runs WHERE definition_name = ? AND slot_key = ? AND ${WAITS_FOR_SLOT}
         ORDER BY created_seq LIMIT ?`,
      )
      .pluck(),
    setSlot: db.prepare('UPDATE runs SET slot_key = ?, wait_until = ? WHERE run_id = ?'),
    admit: db.prepare(
      `UPDATE runs SET wait_until = NULL, status_summary = ?, record_revision = record_revision + 1
       WHERE run_id = ? AND ${WAITS_FOR_SLOT}`,
    ),
    waitingKeys: db.prepare(sweepKeysSql('', '?')),
  };
}

type SlotStatements = ReturnType<typeof prepareSlotStatements>;

/** The RunConcurrency role of the SQLite store, over its open database and writer. */
export class SqliteConcurrency {
  readonly #sql: SlotStatements;
  readonly #writer: GroupCommitWriter;
  readonly #writes: SqliteSlotWrites;

  constructor(db: Database.Database, writer: GroupCommitWriter, writes: SqliteSlotWrites) {
    this.#sql = prepareSlotStatements(db);
    this.#writer = writer;
    this.#writes = writes;
  }

  /** The caller (the store) has checked the record. */
  createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    checkSlot(slot);
    checkLimitedSeed(seed);
    return this.#writer.write(() => {
      this.#writes.insertRun(record);
      return this.#admit(seed, slot);
    });
  }

  seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    checkSlot(slot);
    checkLimitedSeed(seed);
    return this.#writer.write(() => this.#admit(seed, slot));
  }

  /** Without an fsync: a promotion lost in a crash is made again by the next sweep. */
  promoteAfter(run_id: string): Promise<string[]> {
    checkRunId(run_id);
    return this.#writer.write(
      () => {
        const row = this.#sql.runSlot.get(run_id) as { definition_name: string; slot_key: string | null } | undefined;
        return row?.slot_key == null ? [] : this.#promote(row.definition_name, row.slot_key);
      },
      { sync: false },
    );
  }

  promoteWaiting(limit: number): Promise<string[]> {
    checkSweepLimit(limit);
    return this.#writer.write(
      () => {
        const keys = this.#sql.waitingKeys.all(limit) as { definition_name: string; slot_key: string }[];
        return keys.flatMap((k) => this.#promote(k.definition_name, k.slot_key));
      },
      { sync: false },
    );
  }

  /** Seeds the unseeded run as admitted (a slot is free and nobody older waits) or waiting; inside the writer. */
  #admit(seed: Commit, slot: ConcurrencySlot): RunRecord {
    const sql = this.#sql;
    const row = sql.runSlot.get(seed.run_id) as { definition_name: string } | undefined;
    if (row === undefined) throw new RimthanError('not_found', 'run not found');
    const name = row.definition_name;
    sql.upsertKey.run(name, slot.key, slot.limit);
    const holders = Number(sql.holders.get(name, slot.key));
    const queue = (sql.waiters.all(name, slot.key, 1) as string[]).length > 0;
    const admitted = holders < slot.limit && !queue;
    const seeded = this.#writes.apply(limitedSeed(seed, seed, admitted));
    sql.setSlot.run(slot.key, admitted ? null : WAIT_FOREVER, seed.run_id);
    return seeded;
  }

  /** Admits the oldest waiting runs of the key while its slots are free; forgets a key nothing holds or awaits. */
  #promote(name: string, key: string): string[] {
    const sql = this.#sql;
    const limit = sql.keyLimit.get(name, key) as number | undefined;
    const holders = Number(sql.holders.get(name, key));
    if (limit === undefined) return [];
    const free = Math.max(0, Number(limit) - holders);
    const ids = free === 0 ? [] : (sql.waiters.all(name, key, free) as string[]);
    for (const id of ids) sql.admit.run(ADMITTED_SUMMARY, id);
    if (holders === 0 && ids.length === 0 && (sql.waiters.all(name, key, 1) as string[]).length === 0) {
      sql.dropKey.run(name, key);
    }
    return ids;
  }
}
