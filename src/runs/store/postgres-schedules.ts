/**
 * Flow schedules on PostgreSQL (see RunSchedules). A compare-and-swap is one UPDATE guarded by the row's revision, so
 * of two workers taking the same tick exactly one changes the row; a sync is one transaction of upserts and deletes.
 * Key columns use collation "C", so pages come in byte order, as on SQLite.
 */
import type pg from 'pg';
import { withTransaction } from '../../postgres/index.js';
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

function scheduleQueries(q: string) {
  return {
    ofFlow: `SELECT ${SCHEDULE_COLUMNS} FROM ${q}.run_schedules WHERE definition_name = $1 ORDER BY schedule_id`,
    one: `SELECT ${SCHEDULE_COLUMNS} FROM ${q}.run_schedules WHERE definition_name = $1 AND schedule_id = $2`,
    first: `SELECT ${SCHEDULE_COLUMNS} FROM ${q}.run_schedules ORDER BY definition_name, schedule_id LIMIT $1`,
    after: `SELECT ${SCHEDULE_COLUMNS} FROM ${q}.run_schedules WHERE (definition_name, schedule_id) > ($1, $2)
      ORDER BY definition_name, schedule_id LIMIT $3`,
    upsert: `INSERT INTO ${q}.run_schedules AS s (definition_name, schedule_id, definition_version, cron, timezone,
        overlap, catch_up, next_tick_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      ON CONFLICT (definition_name, schedule_id) DO UPDATE SET
        next_tick_at = CASE WHEN s.cron = excluded.cron AND s.timezone = excluded.timezone THEN s.next_tick_at
          ELSE excluded.next_tick_at END,
        definition_version = excluded.definition_version, cron = excluded.cron, timezone = excluded.timezone,
        overlap = excluded.overlap, catch_up = excluded.catch_up, updated_at = excluded.updated_at,
        revision = s.revision + 1
      WHERE s.definition_version <> excluded.definition_version OR s.cron <> excluded.cron
        OR s.timezone <> excluded.timezone OR s.overlap <> excluded.overlap OR s.catch_up <> excluded.catch_up`,
    removeOthers: `DELETE FROM ${q}.run_schedules WHERE definition_name = $1 AND NOT (schedule_id = ANY($2::text[]))`,
  } as const;
}

/** The RunSchedules role of the PostgreSQL store, over its pool and (quoted) schema. */
export class PostgresSchedules {
  readonly #sql: ReturnType<typeof scheduleQueries>;
  readonly #quoted: string;
  readonly #pool: () => pg.Pool;

  constructor(pool: () => pg.Pool, quotedSchema: string) {
    this.#pool = pool;
    this.#quoted = quotedSchema;
    this.#sql = scheduleQueries(quotedSchema);
  }

  async syncSchedules(
    definition_name: string,
    declared: readonly ScheduleDeclaration[],
    updated_at: string,
  ): Promise<ScheduleRecord[]> {
    checkDefinitionName(definition_name);
    checkDeclarations(definition_name, declared);
    const sql = this.#sql;
    return withTransaction(this.#pool(), async (client) => {
      await client.query(sql.removeOthers, [definition_name, declared.map((d) => d.schedule_id)]);
      for (const d of declared) {
        await client.query(sql.upsert, [
          d.definition_name,
          d.schedule_id,
          d.definition_version,
          d.cron,
          d.timezone,
          d.overlap,
          d.catch_up,
          d.next_tick_at,
          updated_at,
        ]);
      }
      return (await client.query<ScheduleRow>(sql.ofFlow, [definition_name])).rows.map(rowToSchedule);
    });
  }

  async getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined> {
    checkScheduleKey(definition_name, schedule_id);
    const row = (await this.#pool().query<ScheduleRow>(this.#sql.one, [definition_name, schedule_id])).rows[0];
    return row === undefined ? undefined : rowToSchedule(row);
  }

  async listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]> {
    checkScheduleQuery(query);
    const after = query.after;
    const result =
      after === undefined
        ? await this.#pool().query<ScheduleRow>(this.#sql.first, [query.limit])
        : await this.#pool().query<ScheduleRow>(this.#sql.after, [
            after.definition_name,
            after.schedule_id,
            query.limit,
          ]);
    return result.rows.map(rowToSchedule);
  }

  async updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined> {
    checkScheduleUpdate(update);
    const { clause, values } = updateAssignments(update, (i) => `$${i}`, 4);
    const text = `UPDATE ${this.#quoted}.run_schedules SET ${clause}
      WHERE definition_name = $1 AND schedule_id = $2 AND revision = $3 RETURNING ${SCHEDULE_COLUMNS}`;
    const key = [update.definition_name, update.schedule_id, update.expected_revision];
    const row = (await this.#pool().query<ScheduleRow>(text, [...key, ...values])).rows[0];
    return row === undefined ? undefined : rowToSchedule(row);
  }
}
