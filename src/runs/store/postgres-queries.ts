/**
 * SQL text of the PostgreSQL run store for one (quoted) schema. Values are always bound parameters.
 */
import { ACTIVITY_COLUMNS, RUN_COLUMNS } from './rows.js';

/** Builds the store's queries for schema `q` (already quoted by quoteSchema). */
export function postgresQueries(q: string) {
  return {
    putInput: `INSERT INTO ${q}.inputs (sha256, canonical) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING`,
    getInput: `SELECT canonical FROM ${q}.inputs WHERE sha256 = $1`,
    insertRun: `INSERT INTO ${q}.runs (run_id, session_id, definition_name, definition_version, parent_run_id,
        input_sha256, idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor,
        artifacts, artifact_namespace, interrupt, created_at, updated_at, record_revision)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, -1, 0, $11, $12, $13, $14, $15, 0)
      RETURNING ${RUN_COLUMNS}`,
    runById: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = $1`,
    runByIdForUpdate: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = $1 FOR UPDATE`,
    runBySession: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND run_id = $2`,
    runByKey: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND idempotency_key = $2`,
    listRuns: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE session_id = $1 AND created_seq > $2
      ORDER BY created_seq LIMIT $3`,
    unseeded: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE status = 'pending' AND checkpoint_revision < 0
      AND created_at < $1 ORDER BY created_seq LIMIT $2`,
    updateRun: `UPDATE ${q}.runs SET status = $2, status_summary = $3, cancel_requested = $4,
        checkpoint_revision = $5, activity_cursor = $6, artifacts = $7, interrupt = $8, updated_at = $9,
        record_revision = $10,
        lease_owner = CASE WHEN $2 = 'running' THEN lease_owner END,
        lease_expires_at = CASE WHEN $2 = 'running' THEN lease_expires_at END
      WHERE run_id = $1 AND record_revision = $11`,
    takeLease: `UPDATE ${q}.runs SET lease_owner = $2, lease_expires_at = now() + $3::float8 * interval '1 millisecond'
      WHERE run_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at <= now())`,
    insertCheckpoint: `INSERT INTO ${q}.checkpoints (run_id, revision, state, created_at) VALUES ($1, $2, $3, $4)`,
    latestCheckpoint: `SELECT run_id, revision, state, created_at FROM ${q}.checkpoints WHERE run_id = $1
      ORDER BY revision DESC LIMIT 1`,
    /** Prefix of a multi-row activity insert; rows and the conflict clause are appended. */
    insertActivitiesPrefix: `INSERT INTO ${q}.activities (${ACTIVITY_COLUMNS}) VALUES `,
    insertActivitiesSuffix: ' ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
    eventOrdinal: `SELECT ordinal FROM ${q}.activities WHERE run_id = $1 AND revision = $2 AND event_id = $3`,
    historyFirst: `SELECT ${ACTIVITY_COLUMNS} FROM ${q}.activities WHERE run_id = $1
      ORDER BY revision, ordinal LIMIT $2`,
    historyAfter: `SELECT ${ACTIVITY_COLUMNS} FROM ${q}.activities WHERE run_id = $1 AND (revision, ordinal) > ($2, $3)
      ORDER BY revision, ordinal LIMIT $4`,
    claim: `WITH picked AS (
        SELECT run_id FROM ${q}.runs
        WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0
          AND (lease_owner IS NULL OR lease_expires_at <= now())
          AND NOT (run_id = ANY($4::text[]))
        ORDER BY created_seq
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      UPDATE ${q}.runs AS r SET lease_owner = $1, lease_expires_at = now() + $2::float8 * interval '1 millisecond',
        record_revision = r.record_revision + 1
      FROM picked WHERE r.run_id = picked.run_id
      RETURNING r.*`,
    renew: `UPDATE ${q}.runs SET lease_expires_at = now() + $2::float8 * interval '1 millisecond'
      WHERE lease_owner = $1 AND run_id = ANY($3::text[])
      RETURNING run_id`,
    release: `UPDATE ${q}.runs SET lease_owner = NULL, lease_expires_at = NULL WHERE run_id = $2 AND lease_owner = $1`,
    notify: 'SELECT pg_notify($1, $2)',
  } as const;
}

export type PostgresQueries = ReturnType<typeof postgresQueries>;

/** `$n` placeholders for `rows` activity rows of 12 columns each. */
export function activityPlaceholders(rows: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const base = r * 12;
    out.push(`(${Array.from({ length: 12 }, (_, i) => `$${base + i + 1}`).join(', ')})`);
  }
  return out.join(', ');
}
