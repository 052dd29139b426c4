/**
 * The store's sessions (RunStore.listSessions), one SQL shape for both backends: the runs grouped by session id, a
 * count per status and the latest update, read in session id order from the (session_id, created_seq) index so a
 * page costs the runs of its own sessions. Byte order on both: SQLite's BINARY collation, and PostgreSQL's column
 * collation "C" (migration 004).
 */
import { RunStatus } from './types.js';
import type { SessionSummary } from './types.js';

const STATUSES = Object.values(RunStatus);

/** A grouped row as either driver returns it (SQLite integers, PostgreSQL ints cast in SQL). */
export type SessionRow = { session_id: string; runs: number | string; last_activity: string } & Record<
  RunStatus,
  number | string | null
>;

/** The SELECT list: `sum(status = 's')` in SQLite, `count(*) FILTER (WHERE status = 's')` in PostgreSQL. */
function columns(dialect: 'sqlite' | 'postgres'): string {
  const counts = STATUSES.map((s) =>
    dialect === 'sqlite'
      ? `coalesce(sum(status = '${s}'), 0) AS ${s}`
      : `(count(*) FILTER (WHERE status = '${s}'))::int AS ${s}`,
  );
  const total = dialect === 'sqlite' ? 'count(*) AS runs' : 'count(*)::int AS runs';
  return ['session_id', total, ...counts, 'max(updated_at) AS last_activity'].join(', ');
}

/**
 * The two statements: a page after a session id, and one session only (after a session id too, so a caller's own
 * view pages like the operator's). Parameters: (after, limit) and (session, after).
 */
export function sessionQueries(
  dialect: 'sqlite' | 'postgres',
  table: string,
): { readonly page: string; readonly one: string } {
  const p = dialect === 'sqlite' ? ['?', '?'] : ['$1', '$2'];
  return {
    page: `SELECT ${columns(dialect)} FROM ${table} WHERE session_id > ${p[0]}
      GROUP BY session_id ORDER BY session_id LIMIT ${p[1]}`,
    one: `SELECT ${columns(dialect)} FROM ${table} WHERE session_id = ${p[0]} AND session_id > ${p[1]}
      GROUP BY session_id`,
  };
}

export function rowToSession(row: SessionRow): SessionSummary {
  const by_status = Object.fromEntries(STATUSES.map((s) => [s, Number(row[s] ?? 0)])) as Record<RunStatus, number>;
  return { session_id: row.session_id, runs: Number(row.runs), by_status, last_activity: row.last_activity };
}
