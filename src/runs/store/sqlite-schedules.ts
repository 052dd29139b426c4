/**
 * Flow schedules on SQLite (see RunSchedules). Every write runs in one turn of the store's single writer, so a sync and
 * a compare-and-swap on one schedule never interleave, and two processes on one file serialise on its write lock.
 */
import type Database from 'better-sqlite3';
import type { GroupCommitWriter } from './group-commit.js';
import type { ScheduleDeclaration, ScheduleQuery, ScheduleRecord, ScheduleUpdate } from './types.js';
import {
  checkDeclarations,
  checkDefinitionName,
  checkScheduleKey,
  checkScheduleQuery,
  checkScheduleUpdate,
  rowToSchedule,
  SCHEDULE_COLUMNS,
  updateAssignments,
  type ScheduleRow,
} from './validate-schedules.js';
import { settle, settleAsync } from './settle.js';

function prepareScheduleStatements(db: Database.Database) {
  return {
    ofFlow: db.prepare(`SELECT ${SCHEDULE_COLUMNS} FROM run_schedules WHERE definition_name = ? ORDER BY schedule_id`),
    one: db.prepare(`SELECT ${SCHEDULE_COLUMNS} FROM run_schedules WHERE definition_name = ? AND schedule_id = ?`),
    first: db.prepare(`SELECT ${SCHEDULE_COLUMNS} FROM run_schedules ORDER BY definition_name, schedule_id LIMIT ?`),
    after: db.prepare(
      `SELECT ${SCHEDULE_COLUMNS} FROM run_schedules WHERE (definition_name, schedule_id) > (?, ?)
       ORDER BY definition_name, schedule_id LIMIT ?`,
    ),
    upsert: db.prepare(
      `INSERT INTO run_schedules (definition_name, schedule_id, definition_version, cron, timezone, overlap, catch_up,
         next_tick_at, updated_at)
       VALUES (@definition_name, @schedule_id, @definition_version, @cron, @timezone, @overlap, @catch_up,
         @next_tick_at, @updated_at)
       ON CONFLICT (definition_name, schedule_id) DO UPDATE SET
         next_tick_at = CASE WHEN cron = excluded.cron AND timezone = excluded.timezone THEN next_tick_at
           ELSE excluded.next_tick_at END,
         definition_version = excluded.definition_version, cron = excluded.cron, timezone = excluded.timezone,
         overlap = excluded.overlap, catch_up = excluded.catch_up, updated_at = excluded.updated_at,
         revision = revision + 1
       WHERE definition_version <> excluded.definition_version OR cron <> excluded.cron
         OR timezone <> excluded.timezone OR overlap <> excluded.overlap OR catch_up <> excluded.catch_up`,
    ),
    remove: db.prepare('DELETE FROM run_schedules WHERE definition_name = ? AND schedule_id = ?'),
  };
}

/** The RunSchedules role of the SQLite store, over its open database and writer. */
export class SqliteSchedules {
  readonly #db: Database.Database;
  readonly #sql: ReturnType<typeof prepareScheduleStatements>;
  readonly #writer: GroupCommitWriter;
  /** Update statements by SET clause (a handful of shapes: the scheduler's few transitions). */
  readonly #updates = new Map<string, Database.Statement>();

  constructor(db: Database.Database, writer: GroupCommitWriter) {
    this.#db = db;
    this.#sql = prepareScheduleStatements(db);
    this.#writer = writer;
  }

  syncSchedules(
    definition_name: string,
    declared: readonly ScheduleDeclaration[],
    updated_at: string,
  ): Promise<ScheduleRecord[]> {
    return settleAsync(() => {
      checkDefinitionName(definition_name);
      checkDeclarations(definition_name, declared);
      const sql = this.#sql;
      return this.#writer.write(() => {
        const keep = new Set(declared.map((d) => d.schedule_id));
        for (const row of sql.ofFlow.all(definition_name) as ScheduleRow[]) {
          if (!keep.has(row.schedule_id)) sql.remove.run(definition_name, row.schedule_id);
        }
        for (const d of declared) sql.upsert.run({ ...d, updated_at });
        return (sql.ofFlow.all(definition_name) as ScheduleRow[]).map(rowToSchedule);
      });
    });
  }

  getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined> {
    return settle(() => {
      checkScheduleKey(definition_name, schedule_id);
      const row = this.#sql.one.get(definition_name, schedule_id) as ScheduleRow | undefined;
      return row === undefined ? undefined : rowToSchedule(row);
    });
  }

  listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]> {
    return settle(() => {
      checkScheduleQuery(query);
      const after = query.after;
      const rows = (
        after === undefined
          ? this.#sql.first.all(query.limit)
          : this.#sql.after.all(after.definition_name, after.schedule_id, query.limit)
      ) as ScheduleRow[];
      return rows.map(rowToSchedule);
    });
  }

  updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined> {
    return settleAsync(() => {
      checkScheduleUpdate(update);
      const { clause, values } = updateAssignments(update, () => '?', 1);
      let statement = this.#updates.get(clause);
      if (statement === undefined) {
        statement = this.#db.prepare(
          `UPDATE run_schedules SET ${clause} WHERE definition_name = ? AND schedule_id = ? AND revision = ?`,
        );
        this.#updates.set(clause, statement);
      }
      const prepared = statement;
      return this.#writer.write(() => {
        const changed = prepared.run(...values, update.definition_name, update.schedule_id, update.expected_revision);
        if (changed.changes !== 1) return undefined;
        const row = this.#sql.one.get(update.definition_name, update.schedule_id) as ScheduleRow;
        return rowToSchedule(row);
      });
    });
  }
}
