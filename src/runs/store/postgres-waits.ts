/**
 * Durable waits on PostgreSQL (see RunWaits): parks, events, child wake-ups and the next timer. A park and an event
 * lock the run's row before they look at what the other wrote, so one of them always sees the other: a park never
 * misses an event or a child end that commits at the same moment.
 */
import type pg from 'pg';
import { withTransaction } from '../../postgres/index.js';
import { RUN_COLUMNS, rowToEvent, rowToRun, type EventRow, type RunRow } from './rows.js';
import type { ListQuery, ParkOutcome, RunEvent, RunPark, RunRecord, SendEventOutcome } from './types.js';
import { CHILD_ENDED, checkEvent, checkEventLookup, checkPark } from './validate-waits.js';
import { checkListQuery, checkRunId } from './validate.js';

function waitQueries(q: string) {
  return {
    park: `UPDATE ${q}.runs SET wait_until = $4, wait_event = $5, wait_child = $6, lease_owner = NULL,
        lease_expires_at = NULL
      WHERE run_id = $1 AND record_revision = $2 AND lease_owner = $3 AND status = 'running'
      RETURNING run_id`,
    eventThere: `SELECT 1 FROM ${q}.run_events WHERE run_id = $1 AND name = $2 AND position = $3`,
    childEnded: `SELECT 1 FROM ${q}.runs WHERE run_id = $1 AND ${CHILD_ENDED}`,
    lockRun: `SELECT status, wait_event FROM ${q}.runs WHERE run_id = $1 FOR UPDATE`,
    eventExists: `SELECT 1 FROM ${q}.run_events WHERE run_id = $1 AND event_id = $2`,
    insertEvent: `INSERT INTO ${q}.run_events (run_id, event_id, name, position, payload, sent_at)
      SELECT $1, $2, $3, count(*), $4, $5 FROM ${q}.run_events WHERE run_id = $1 AND name = $3`,
    wakeForEvent: `UPDATE ${q}.runs SET wait_until = $3
      WHERE run_id = $1 AND wait_event = $2 AND wait_until IS NOT NULL AND wait_until > $3`,
    // Matches the parent's row whatever it holds, so it waits for a park in flight and then sees its wait_child.
    wakeParent: `UPDATE ${q}.runs SET wait_until = CASE
        WHEN wait_child = $2 AND wait_until IS NOT NULL AND wait_until > $3 THEN $3 ELSE wait_until END
      WHERE run_id = $1`,
    eventAt: `SELECT run_id, event_id, name, payload, sent_at FROM ${q}.run_events
      WHERE run_id = $1 AND name = $2 AND position = $3`,
    children: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE parent_run_id = $1 AND created_seq > $2
      ORDER BY created_seq LIMIT $3`,
    nextWake: `SELECT min(wait_until) AS at FROM ${q}.runs WHERE wait_until IS NOT NULL AND status = 'running'`,
  } as const;
}

/** The RunWaits role of the PostgreSQL store, over its pool and (quoted) schema. */
export class PostgresWaits {
  readonly #sql: ReturnType<typeof waitQueries>;
  readonly #pool: () => pg.Pool;

  constructor(pool: () => pg.Pool, quotedSchema: string) {
    this.#pool = pool;
    this.#sql = waitQueries(quotedSchema);
  }

  async parkRun(park: RunPark): Promise<ParkOutcome> {
    checkPark(park);
    const sql = this.#sql;
    // A "ready" answer rolls the park back: the worker keeps its lease and goes on.
    const ready = new Error('ready');
    try {
      return await withTransaction(this.#pool(), async (client) => {
        const values = [park.run_id, park.expected_record_revision, park.worker_id, park.wait_until];
        const parked = await client.query(sql.park, [...values, park.event?.name ?? null, park.child ?? null]);
        if (parked.rowCount === 0) return 'stale';
        if (park.event !== undefined) {
          const there = await client.query(sql.eventThere, [park.run_id, park.event.name, park.event.position]);
          if ((there.rowCount ?? 0) > 0) throw ready;
        }
        if (park.child !== undefined) {
          const ended = await client.query(sql.childEnded, [park.child]);
          if ((ended.rowCount ?? 0) > 0) throw ready;
        }
        return 'parked';
      });
    } catch (error) {
      if (error === ready) return 'ready';
      throw error;
    }
  }

  async sendEvent(event: RunEvent): Promise<SendEventOutcome> {
    const payload = checkEvent(event);
    const sql = this.#sql;
    return withTransaction(this.#pool(), async (client) => {
      const run = (await client.query<{ status: string }>(sql.lockRun, [event.run_id])).rows[0];
      if (run === undefined) return 'not_found';
      if (['completed', 'cancelled', 'failed'].includes(run.status)) return 'finished';
      const exists = await client.query(sql.eventExists, [event.run_id, event.event_id]);
      if ((exists.rowCount ?? 0) > 0) return 'duplicate';
      await client.query(sql.insertEvent, [event.run_id, event.event_id, event.name, payload, event.sent_at]);
      await client.query(sql.wakeForEvent, [event.run_id, event.name, Date.now()]);
      return 'delivered';
    });
  }

  async eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined> {
    checkEventLookup(run_id, name, position);
    const row = (await this.#pool().query<EventRow>(this.#sql.eventAt, [run_id, name, position])).rows[0];
    return row === undefined ? undefined : rowToEvent(row);
  }

  async wakeParent(parent_run_id: string, child_run_id: string): Promise<void> {
    checkRunId(parent_run_id);
    checkRunId(child_run_id);
    await this.#pool().query(this.#sql.wakeParent, [parent_run_id, child_run_id, Date.now()]);
  }

  async childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]> {
    checkRunId(parent_run_id);
    checkListQuery(query);
    const values = [parent_run_id, query.after_seq ?? 0, query.limit];
    return (await this.#pool().query<RunRow>(this.#sql.children, values)).rows.map(rowToRun);
  }

  async nextWakeAt(): Promise<number | undefined> {
    const row = (await this.#pool().query<{ at: string | null }>(this.#sql.nextWake)).rows[0];
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }
}
