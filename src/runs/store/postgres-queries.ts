/**
 * SQL text of the PostgreSQL run store for one (quoted) schema. Values are always bound parameters.
 */
import { commitBatchSql, createBatchSql, NOTIFY_BATCH_SQL, UNSYNCED } from './postgres-batch-sql.js';
import { ACTIVITY_COLUMNS, RUN_COLUMNS } from './rows.js';
import { sessionQueries } from './sessions.js';

/** Builds the store's queries for schema `q` (already quoted by quoteSchema). */
export function postgresQueries(q: string) {
  const sessions = sessionQueries('postgres', `${q}.runs`);
  return {
    createRuns: createBatchSql(q),
    commitBatch: commitBatchSql(q),
    runsByIds: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = ANY($1::text[])`,
    getInput: `SELECT canonical FROM ${q}.inputs WHERE sha256 = $1`,
    runById: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = $1`,
    runBySession: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND run_id = $2`,
    runByKey: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND idempotency_key = $2`,
    listRuns: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND created_seq > $2
      ORDER BY created_seq LIMIT $3`,
    unseeded: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE status = 'pending' AND checkpoint_revision < 0
      AND created_at < $1 ORDER BY created_seq LIMIT $2`,
    latestCheckpoint: `SELECT run_id, revision, state, created_at FROM ${q}.checkpoints WHERE run_id = $1
      ORDER BY revision DESC LIMIT 1`,
    checkpointAt: `SELECT run_id, revision, state, created_at FROM ${q}.checkpoints WHERE run_id = $1 AND revision = $2`,
    definitionsInUse: `SELECT definition_name, definition_version, count(*)::int AS runs,
        (array_agg(run_id ORDER BY created_seq))[1:10] AS run_ids
      FROM ${q}.runs WHERE status IN ('pending', 'running', 'interrupted')
      GROUP BY definition_name, definition_version ORDER BY definition_name, definition_version`,
    runsOfDefinition: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE definition_name = $1 AND definition_version = $2
      AND status IN ('pending', 'running', 'interrupted') AND created_seq > $3 ORDER BY created_seq LIMIT $4`,
    statusCounts: `SELECT status, count(*)::int AS n FROM ${q}.runs GROUP BY status`,
    sessionsPage: sessions.page,
    sessionOne: sessions.one,
    eventOrdinal: `SELECT ordinal FROM ${q}.activities WHERE run_id = $1 AND revision = $2 AND event_id = $3`,
    historyFirst: `SELECT ${ACTIVITY_COLUMNS} FROM ${q}.activities WHERE run_id = $1
      ORDER BY revision, ordinal LIMIT $2`,
    historyAfter: `SELECT ${ACTIVITY_COLUMNS} FROM ${q}.activities WHERE run_id = $1 AND (revision, ordinal) > ($2, $3)
      ORDER BY revision, ordinal LIMIT $4`,
    // A claim is a fencing write (record_revision + 1); a queued seed (pending, checkpoint 0) becomes running.
    // Ready runs and parked runs whose time came ($5, ms since the epoch) are read through their own partial indexes;
    // the conditions are repeated beside FOR UPDATE so a row another claim took meanwhile is re-checked and skipped.
    // Claiming a parked run wakes it: its wait is cleared.
    claim: `WITH picked AS (
        SELECT run_id, lease_owner AS previous_owner FROM ${q}.runs
        WHERE run_id IN (
            (SELECT run_id FROM ${q}.runs
             WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0 AND wait_until IS NULL
               AND (lease_owner IS NULL OR lease_expires_at <= now()) AND NOT (run_id = ANY($4::text[]))
             ORDER BY created_seq LIMIT $3)
            UNION ALL
            (SELECT run_id FROM ${q}.runs
             WHERE wait_until IS NOT NULL AND wait_until <= $5 AND status = 'running'
               AND (lease_owner IS NULL OR lease_expires_at <= now()) AND NOT (run_id = ANY($4::text[]))
             ORDER BY wait_until LIMIT $3))
          AND status IN ('pending', 'running') AND checkpoint_revision >= 0
          AND (wait_until IS NULL OR wait_until <= $5)
          AND (lease_owner IS NULL OR lease_expires_at <= now())
        ORDER BY created_seq
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      UPDATE ${q}.runs AS r SET lease_owner = $1, lease_expires_at = now() + $2::float8 * interval '1 millisecond',
        wait_until = NULL, wait_event = NULL, wait_child = NULL,
        record_revision = r.record_revision + 1, status = 'running',
        status_summary = CASE WHEN r.status = 'pending' THEN 'started' ELSE r.status_summary END
      FROM picked WHERE r.run_id = picked.run_id
      RETURNING ${RUN_COLUMNS.split(', ')
        .map((c) => `r.${c}`)
        .join(', ')}, picked.previous_owner`,
    requestCancel: `WITH upd AS (
        UPDATE ${q}.runs SET cancel_requested = true, status_summary = $2, updated_at = $3,
          record_revision = record_revision + 1, wait_until = NULL, wait_event = NULL, wait_child = NULL
        WHERE run_id = $1 AND status NOT IN ('completed', 'cancelled', 'failed') AND NOT cancel_requested
        RETURNING ${RUN_COLUMNS}
      )
      SELECT ${RUN_COLUMNS} FROM upd
      UNION ALL
      SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = $1 AND NOT EXISTS (SELECT 1 FROM upd)`,
    renew: `WITH relaxed AS ${UNSYNCED} UPDATE ${q}.runs SET lease_expires_at = now() + $2::float8 * interval '1 millisecond'
      FROM relaxed WHERE lease_owner = $1 AND run_id = ANY($3::text[])
      RETURNING run_id`,
    release: `WITH relaxed AS ${UNSYNCED} UPDATE ${q}.runs SET lease_owner = NULL, lease_expires_at = NULL
      FROM relaxed WHERE run_id = $2 AND lease_owner = $1`,
    notifyMany: NOTIFY_BATCH_SQL,
  } as const;
}

export type PostgresQueries = ReturnType<typeof postgresQueries>;
