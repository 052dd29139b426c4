/**
 * The prepared statements of the SQLite run store, compiled once per open database.
 */
import type Database from 'better-sqlite3';
import { ACTIVITY_COLUMNS, RUN_COLUMNS } from './rows.js';
import { sessionQueries } from './sessions.js';

type StatementName =
  | 'putInput'
  | 'getInput'
  | 'insertRun'
  | 'runById'
  | 'runBySession'
  | 'runByKey'
  | 'listRuns'
  | 'unseeded'
  | 'updateRun'
  | 'advanceRun'
  | 'insertCheckpoint'
  | 'latestCheckpoint'
  | 'insertActivity'
  | 'checkpointAt'
  | 'definitionsInUse'
  | 'definitionRunIds'
  | 'runsOfDefinition'
  | 'statusCounts'
  | 'sessionsPage'
  | 'sessionOne'
  | 'eventOrdinal'
  | 'historyFirst'
  | 'historyAfter'
  | 'claimable'
  | 'setLease'
  | 'leaseOwner'
  | 'takeLease'
  | 'renewLease'
  | 'releaseLease'
  | 'clearWait';

/** The SQLite store's statements by name. */
export type SqliteStatements = { readonly [K in StatementName]: Database.Statement };

/** Prepares every statement the SQLite store uses. */
export function prepareStatements(db: Database.Database): SqliteStatements {
  const sessions = sessionQueries('sqlite', 'runs');
  return {
    putInput: db.prepare('INSERT INTO inputs (sha256, canonical) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING'),
    getInput: db.prepare('SELECT canonical FROM inputs WHERE sha256 = ?').pluck(),
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, session_id, definition_name, definition_version, parent_run_id, input_sha256,
        idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor, artifacts,
        artifact_namespace, interrupt, created_at, updated_at, record_revision)
       VALUES (@run_id, @session_id, @definition_name, @definition_version, @parent_run_id, @input_sha256,
        @idempotency_key, @status, @status_summary, @cancel_requested, -1, 0, @artifacts,
        @artifact_namespace, @interrupt, @created_at, @updated_at, 0)`,
    ),
    runById: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`),
    runBySession: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE session_id = ? AND run_id = ?`),
    runByKey: db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE session_id = ? AND idempotency_key = ?`),
    listRuns: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE session_id = ? AND created_seq > ? ORDER BY created_seq LIMIT ?`,
    ),
    unseeded: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE status = 'pending' AND checkpoint_revision < 0 AND created_at < ?
       ORDER BY created_seq LIMIT ?`,
    ),
    updateRun: db.prepare(
      `UPDATE runs SET definition_version = @definition_version, status = @status, status_summary = @status_summary, cancel_requested = @cancel_requested,
        checkpoint_revision = @checkpoint_revision, activity_cursor = @activity_cursor, artifacts = @artifacts,
        interrupt = @interrupt, updated_at = @updated_at, record_revision = @record_revision,
        lease_owner = CASE WHEN @status = 'running' THEN lease_owner END,
        lease_expires_at = CASE WHEN @status = 'running' THEN lease_expires_at END
       WHERE run_id = @run_id AND record_revision = @expected_record_revision`,
    ),
    // The commit of a vertex step: the run stays `running` on the same flow version, without a cancel request or an
    // interrupt. It leaves every column that a status-partial index reads (status, definition_version) untouched, so
    // SQLite maintains none of those indexes for it; the lease stays as it is (the run remains running).
    advanceRun: db.prepare(
      `UPDATE runs SET status_summary = @status_summary, checkpoint_revision = @checkpoint_revision,
        activity_cursor = @activity_cursor, artifacts = @artifacts, updated_at = @updated_at,
        record_revision = @record_revision
       WHERE run_id = @run_id AND record_revision = @expected_record_revision`,
    ),
    insertCheckpoint: db.prepare('INSERT INTO checkpoints (run_id, revision, state, created_at) VALUES (?, ?, ?, ?)'),
    latestCheckpoint: db.prepare(
      'SELECT run_id, revision, state, created_at FROM checkpoints WHERE run_id = ? ORDER BY revision DESC LIMIT 1',
    ),
    insertActivity: db.prepare(
      `INSERT INTO activities (${ACTIVITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
    ),
    checkpointAt: db.prepare(
      'SELECT run_id, revision, state, created_at FROM checkpoints WHERE run_id = ? AND revision = ?',
    ),
    definitionsInUse: db.prepare(
      `SELECT definition_name, definition_version, count(*) AS runs FROM runs
       WHERE status IN ('pending', 'running', 'interrupted')
       GROUP BY definition_name, definition_version ORDER BY definition_name, definition_version`,
    ),
    definitionRunIds: db
      .prepare(
        `SELECT run_id FROM runs WHERE definition_name = ? AND definition_version = ?
         AND status IN ('pending', 'running', 'interrupted') ORDER BY created_seq LIMIT 10`,
      )
      .pluck(),
    runsOfDefinition: db.prepare(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE definition_name = ? AND definition_version = ?
       AND status IN ('pending', 'running', 'interrupted') AND created_seq > ? ORDER BY created_seq LIMIT ?`,
    ),
    statusCounts: db.prepare('SELECT status, count(*) AS n FROM runs GROUP BY status'),
    sessionsPage: db.prepare(sessions.page),
    sessionOne: db.prepare(sessions.one),
    eventOrdinal: db
      .prepare('SELECT ordinal FROM activities WHERE run_id = ? AND revision = ? AND event_id = ?')
      .pluck(),
    historyFirst: db.prepare(
      `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE run_id = ? ORDER BY revision, ordinal LIMIT ?`,
    ),
    historyAfter: db.prepare(
      `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE run_id = ? AND (revision, ordinal) > (?, ?)
       ORDER BY revision, ordinal LIMIT ?`,
    ),
    // Ready runs and parked runs whose time came, each through its own partial index (see migration 005).
    claimable: db
      .prepare(
        `SELECT run_id FROM (
           SELECT * FROM (SELECT run_id, created_seq FROM runs
             WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0 AND wait_until IS NULL
               AND (lease_owner IS NULL OR lease_expires_at <= @now)
               AND run_id NOT IN (SELECT value FROM json_each(@skip))
             ORDER BY created_seq LIMIT @limit)
           UNION ALL
           SELECT * FROM (SELECT run_id, created_seq FROM runs
             WHERE wait_until IS NOT NULL AND wait_until <= @now AND status = 'running'
               AND (lease_owner IS NULL OR lease_expires_at <= @now)
               AND run_id NOT IN (SELECT value FROM json_each(@skip))
             ORDER BY wait_until LIMIT @limit))
         ORDER BY created_seq LIMIT @limit`,
      )
      .pluck(),
    // A claim is a fencing write: it bumps record_revision (see RunStore.claimRuns).
    leaseOwner: db.prepare('SELECT lease_owner FROM runs WHERE run_id = ?').pluck(),
    // A queued seed (pending with checkpoint 0) starts executing here: the claim moves it to running.
    setLease: db.prepare(
      `UPDATE runs SET lease_owner = ?, lease_expires_at = ?, record_revision = record_revision + 1,
        wait_until = NULL, wait_event = NULL, wait_child = NULL,
        status_summary = CASE WHEN status = 'pending' THEN 'started' ELSE status_summary END, status = 'running'
       WHERE run_id = ?`,
    ),
    takeLease: db.prepare(
      `UPDATE runs SET lease_owner = @worker_id, lease_expires_at = @expires
       WHERE run_id = @run_id AND (lease_owner IS NULL OR lease_owner = @worker_id OR lease_expires_at <= @now)`,
    ),
    renewLease: db.prepare('UPDATE runs SET lease_expires_at = ? WHERE run_id = ? AND lease_owner = ?'),
    clearWait: db.prepare('UPDATE runs SET wait_until = NULL, wait_event = NULL, wait_child = NULL WHERE run_id = ?'),
    releaseLease: db.prepare(
      'UPDATE runs SET lease_owner = NULL, lease_expires_at = NULL WHERE run_id = ? AND lease_owner = ?',
    ),
  };
}
