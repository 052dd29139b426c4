/**
 * Durable waits on SQLite (see RunWaits): parks, events, child wake-ups and the next timer. Every write runs in one
 * turn of the store's single writer, so a park and an event (or a child's end) never interleave.
 */
import type Database from 'better-sqlite3';
import type { GroupCommitWriter } from './group-commit.js';
import { RUN_COLUMNS, rowToEvent, rowToRun, type EventRow, type RunRow } from './rows.js';
import type { ListQuery, ParkOutcome, RunEvent, RunPark, RunRecord, SendEventOutcome } from './types.js';
import { checkEvent, checkEventLookup, checkPark } from './validate-waits.js';
import { checkListQuery, checkRunId, isTerminal } from './validate.js';
import type { RunStatus } from './types.js';
import { CHILD_ENDED } from './validate-waits.js';
import { settle } from './settle.js';

function prepareWaitStatements(db: Database.Database) {
  return {
    holder: db.prepare(
      `SELECT 1 FROM runs WHERE run_id = ? AND record_revision = ? AND lease_owner = ? AND status = 'running'`,
    ),
    park: db.prepare(
      `UPDATE runs SET wait_until = @until, wait_event = @event, wait_child = @child, lease_owner = NULL,
        lease_expires_at = NULL WHERE run_id = @run_id`,
    ),
    eventThere: db.prepare('SELECT 1 FROM run_events WHERE run_id = ? AND name = ? AND position = ?'),
    status: db.prepare('SELECT status FROM runs WHERE run_id = ?').pluck(),
    childEnded: db.prepare(`SELECT 1 FROM runs WHERE run_id = ? AND ${CHILD_ENDED}`),
    eventExists: db.prepare('SELECT 1 FROM run_events WHERE run_id = ? AND event_id = ?'),
    insertEvent: db.prepare(
      `INSERT INTO run_events (run_id, event_id, name, position, payload, sent_at)
       SELECT @run_id, @event_id, @name, count(*), @payload, @sent_at FROM run_events
       WHERE run_id = @run_id AND name = @name`,
    ),
    wakeForEvent: db.prepare(
      `UPDATE runs SET wait_until = @now
       WHERE run_id = @run_id AND wait_event = @name AND wait_until IS NOT NULL AND wait_until > @now`,
    ),
    wakeParent: db.prepare(
      `UPDATE runs SET wait_until = @now
       WHERE run_id = @parent AND wait_child = @child AND wait_until IS NOT NULL AND wait_until > @now`,
    ),
    eventAt: db.prepare(
      'SELECT run_id, event_id, name, payload, sent_at FROM run_events WHERE run_id = ? AND name = ? AND position = ?',
    ),
    children: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE parent_run_id = ? AND created_seq > ? ORDER BY created_seq LIMIT ?`,
    ),
    nextWake: db
      .prepare(`SELECT min(wait_until) FROM runs WHERE wait_until IS NOT NULL AND status = 'running'`)
      .pluck(),
  };
}

/** The RunWaits role of the SQLite store, over its open database and writer. */
export class SqliteWaits {
  readonly #sql: ReturnType<typeof prepareWaitStatements>;
  readonly #writer: GroupCommitWriter;

  constructor(db: Database.Database, writer: GroupCommitWriter) {
    this.#sql = prepareWaitStatements(db);
    this.#writer = writer;
  }

  /** Without an fsync: a park lost in a crash only means the run is claimed again when its lease runs out. */
  parkRun(park: RunPark): Promise<ParkOutcome> {
    checkPark(park);
    const sql = this.#sql;
    return this.#writer.write(
      (): ParkOutcome => {
        if (sql.holder.get(park.run_id, park.expected_record_revision, park.worker_id) === undefined) return 'stale';
        const event = park.event;
        if (event !== undefined && sql.eventThere.get(park.run_id, event.name, event.position) !== undefined) {
          return 'ready';
        }
        if (park.child !== undefined && sql.childEnded.get(park.child) !== undefined) return 'ready';
        sql.park.run({
          run_id: park.run_id,
          until: park.wait_until,
          event: event?.name ?? null,
          child: park.child ?? null,
        });
        return 'parked';
      },
      { sync: false },
    );
  }

  sendEvent(event: RunEvent): Promise<SendEventOutcome> {
    const payload = checkEvent(event);
    const sql = this.#sql;
    return this.#writer.write((): SendEventOutcome => {
      const status = sql.status.get(event.run_id) as RunStatus | undefined;
      if (status === undefined) return 'not_found';
      if (isTerminal(status)) return 'finished';
      if (sql.eventExists.get(event.run_id, event.event_id) !== undefined) return 'duplicate';
      sql.insertEvent.run({ ...event, payload });
      sql.wakeForEvent.run({ run_id: event.run_id, name: event.name, now: Date.now() });
      return 'delivered';
    });
  }

  eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined> {
    return settle(() => {
      checkEventLookup(run_id, name, position);
      const row = this.#sql.eventAt.get(run_id, name, position) as EventRow | undefined;
      return row === undefined ? undefined : rowToEvent(row);
    });
  }

  async wakeParent(parent_run_id: string, child_run_id: string): Promise<void> {
    checkRunId(parent_run_id);
    checkRunId(child_run_id);
    await this.#writer.write(
      () => this.#sql.wakeParent.run({ parent: parent_run_id, child: child_run_id, now: Date.now() }),
      { sync: false },
    );
  }

  childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]> {
    return settle(() => {
      checkRunId(parent_run_id);
      checkListQuery(query);
      const rows = this.#sql.children.all(parent_run_id, query.after_seq ?? 0, query.limit) as RunRow[];
      return rows.map(rowToRun);
    });
  }

  nextWakeAt(): Promise<number | undefined> {
    return settle(() => {
      const at = this.#sql.nextWake.get() as number | null;
      return at === null ? undefined : Number(at);
    });
  }
}
