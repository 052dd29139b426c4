/**
 * The PostgreSQL store's batch statements. One statement writes many runs' commits at once and checks each run on its
 * own: a run whose compare-and-swap, status change, checkpoint position or lease check fails is simply not selected
 * (its row is locked and checked in `old`), so it writes nothing while the other runs of the batch commit. A run's
 * consecutive commits arrive as one chain (one row of `i`): its checkpoints and activities are all inserted and its
 * record advances by the chain's length. Every value is a bound array parameter; the text never changes, so the
 * statement is prepared once per connection.
 */
import type { PreparedCommit } from './commit-plan.js';
import { activityValues, encodeJsonColumns, RUN_COLUMNS } from './rows.js';
import type { NewRunRecord, RunRecord } from './types.js';
import { allowedTransitionPairs } from './validate.js';

const COLUMNS = RUN_COLUMNS.split(', ');
const TRANSITIONS = allowedTransitionPairs()
  .map(([from, to]) => `('${from}', '${to}')`)
  .join(', ');

/** The commit statement for schema `q` (quoted). Parameters: see `commitBatchValues`. */
export function commitBatchSql(q: string): string {
  return `WITH i AS (
      SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::bool[],
        $8::text[], $9::bool[], $10::text[], $11::text[], $12::int[], $13::int[], $14::text[], $15::float8[],
        $16::bool[], $17::text[])
      AS i(run_id, expected, steps, head_status, final_status, summary, cancel, artifacts, interrupt_set, interrupt,
        updated_at, cp_first, cp_last, lease_owner, lease_ms, reopen, version)
    ),
    old AS (
      SELECT ${COLUMNS.map((c) => `r.${c}`).join(', ')}, i.steps AS i_steps, i.final_status AS i_final_status,
        i.summary AS i_summary, i.cancel AS i_cancel, i.artifacts AS i_artifacts, i.interrupt_set AS i_interrupt_set,
        i.interrupt AS i_interrupt, i.updated_at AS i_updated_at, i.cp_last AS i_cp_last,
        i.lease_owner AS i_lease_owner, i.lease_ms AS i_lease_ms, i.version AS i_version
      FROM ${q}.runs r JOIN i ON r.run_id = i.run_id
      WHERE r.record_revision = i.expected
        AND ((r.status, COALESCE(i.head_status, r.status)) IN (VALUES ${TRANSITIONS})
          OR (i.reopen AND r.status = 'failed' AND i.head_status = 'running'))
        AND (i.cp_first IS NULL OR r.checkpoint_revision = i.cp_first - 1)
        AND (i.lease_owner IS NULL OR (COALESCE(i.head_status, r.status) = 'running'
          AND (r.lease_owner IS NULL OR r.lease_owner = i.lease_owner OR r.lease_expires_at <= now())))
      FOR UPDATE OF r
    ),
    ia AS (
      SELECT * FROM unnest($18::text[], $19::int[], $20::int[], $21::text[], $22::text[], $23::text[], $24::text[],
        $25::text[], $26::text[], $27::int[], $28::int[], $29::text[])
      AS a(run_id, revision, ordinal, event_id, kind, run_status, occurred_at, vertex_id, vertex_label,
        completed_vertices, total_vertices, message)
    ),
    cps AS (
      INSERT INTO ${q}.checkpoints (run_id, revision, state, created_at)
      SELECT c.run_id, c.revision, c.state, c.created_at
      FROM unnest($30::text[], $31::int[], $32::text[], $33::text[]) AS c(run_id, revision, state, created_at)
      WHERE c.run_id IN (SELECT run_id FROM old)
      RETURNING run_id
    ),
    acts AS (
      INSERT INTO ${q}.activities (run_id, revision, ordinal, event_id, kind, run_status, occurred_at, vertex_id,
        vertex_label, completed_vertices, total_vertices, message)
      SELECT a.* FROM ia a WHERE a.run_id IN (SELECT run_id FROM old)
      ON CONFLICT (event_id) DO NOTHING
      RETURNING run_id, event_id
    ),
    upd AS (
      UPDATE ${q}.runs r SET
        definition_version = COALESCE(o.i_version, r.definition_version),
        status = COALESCE(o.i_final_status, r.status),
        status_summary = COALESCE(o.i_summary, r.status_summary),
        cancel_requested = COALESCE(o.i_cancel, r.cancel_requested),
        artifacts = COALESCE(o.i_artifacts, r.artifacts),
        interrupt = CASE WHEN o.i_interrupt_set THEN o.i_interrupt ELSE r.interrupt END,
        updated_at = o.i_updated_at,
        checkpoint_revision = COALESCE(o.i_cp_last, r.checkpoint_revision),
        activity_cursor = r.activity_cursor + (SELECT count(*) FROM acts WHERE acts.run_id = r.run_id),
        record_revision = r.record_revision + o.i_steps,
        lease_owner = CASE WHEN COALESCE(o.i_final_status, r.status) = 'running'
          THEN COALESCE(o.i_lease_owner, r.lease_owner) END,
        lease_expires_at = CASE WHEN COALESCE(o.i_final_status, r.status) = 'running'
          THEN CASE WHEN o.i_lease_owner IS NULL THEN r.lease_expires_at
            ELSE now() + o.i_lease_ms * interval '1 millisecond' END END
      FROM old o WHERE r.run_id = o.run_id
      RETURNING r.run_id, r.record_revision
    )
    SELECT ${COLUMNS.map((c) => `o.${c}`).join(', ')}, u.record_revision AS new_revision,
      (SELECT count(*) FROM cps WHERE cps.run_id = o.run_id)::int AS checkpoints,
      ARRAY(SELECT a.event_id FROM ia a WHERE a.run_id = o.run_id
        AND NOT EXISTS (SELECT 1 FROM acts x WHERE x.event_id = a.event_id)) AS skipped
    FROM old o JOIN upd u ON u.run_id = o.run_id`;
}

/** The last value a chain's commits give `pick` (undefined when none sets it). */
function lastSet<T>(chain: readonly PreparedCommit[], pick: (p: PreparedCommit) => T | undefined): T | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const value = pick(chain[i] as PreparedCommit);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The parameters of `commitBatchSql` for `chains` (each: one run's consecutive commits, already checked by canChain). */
export function commitBatchValues(chains: readonly (readonly PreparedCommit[])[]): unknown[] {
  const runs: unknown[][] = Array.from({ length: 17 }, () => []);
  const acts: unknown[][] = Array.from({ length: 12 }, () => []);
  const cps: unknown[][] = [[], [], [], []];
  for (const chain of chains) {
    const head = (chain[0] as PreparedCommit).commit;
    const last = (chain[chain.length - 1] as PreparedCommit).commit;
    const interrupt = lastSet(chain, (p) => p.commit.patch.interrupt);
    const checkpoints = chain.flatMap((p) => (p.commit.checkpoint === undefined ? [] : [p.commit.checkpoint.revision]));
    const row = [
      head.run_id,
      head.expected_record_revision,
      chain.length,
      head.patch.status ?? null,
      lastSet(chain, (p) => p.commit.patch.status) ?? null,
      lastSet(chain, (p) => p.commit.patch.status_summary) ?? null,
      lastSet(chain, (p) => p.commit.patch.cancel_requested) ?? null,
      lastSet(chain, (p) => p.commit.patch.artifacts) === undefined
        ? null
        : JSON.stringify(lastSet(chain, (p) => p.commit.patch.artifacts)),
      interrupt !== undefined,
      interrupt === undefined || interrupt === null ? null : JSON.stringify(interrupt),
      last.patch.updated_at,
      checkpoints[0] ?? null,
      checkpoints[checkpoints.length - 1] ?? null,
      head.lease?.worker_id ?? null,
      head.lease?.lease_ms ?? null,
      head.reopen === true,
      head.patch.definition_version ?? null,
    ];
    row.forEach((value, i) => runs[i]?.push(value));
    for (const p of chain) {
      const c = p.commit;
      if (c.checkpoint !== undefined) {
        [c.run_id, c.checkpoint.revision, p.checkpointState, c.checkpoint.created_at].forEach((v, i) =>
          cps[i]?.push(v),
        );
      }
      for (const entry of c.activities ?? []) activityValues(c.run_id, entry).forEach((v, i) => acts[i]?.push(v));
    }
  }
  return [...runs, ...acts, ...cps];
}

/**
 * Many new records in one statement, each with its seed when it has one: the record is inserted as the seed leaves it
 * (its status, checkpoint revision 0, record revision 1, the lease), with the seed's checkpoint and activities, so a
 * start is one statement, one round trip and one WAL flush. A seed needs no check against stored state (the record is
 * new; planCommit decided it against the fresh record before it was queued). A duplicate run id or idempotency key is
 * skipped (absent from RETURNING) and writes no checkpoint or activity; an activity whose event id is taken already
 * is skipped and not counted in `activity_cursor`, as in a commit. The batch also writes the inputs staged by putInput
 * ($36, $37; a digest already stored is not written). It holds a KEY SHARE lock on the stored input of every record it
 * creates until commit (`held`; shared, so concurrent creators never wait for one another), so a prune, which locks
 * inputs FOR UPDATE SKIP LOCKED, cannot delete an input under a run being created (see postgres-retention.ts), so an input reaches the disk with, or before, every run that refers
 * to it; a batch of inputs alone commits without a flush of its own (see UNSYNCED). Parameters: see
 * `createBatchValues`.
 */
export function createBatchSql(q: string): string {
  return `WITH u AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::text[], $10::bool[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
        $16::int[], $17::int[], $18::text[], $19::float8[]) WITH ORDINALITY
      AS u(run_id, session_id, definition_name, definition_version, parent_run_id, input_sha256, idempotency_key,
        status, status_summary, cancel_requested, artifacts, artifact_namespace, interrupt, created_at, updated_at,
        checkpoint_revision, record_revision, lease_owner, lease_ms, ord)
    ),
    ia AS (
      SELECT * FROM unnest($20::text[], $21::int[], $22::int[], $23::text[], $24::text[], $25::text[], $26::text[],
        $27::text[], $28::text[], $29::int[], $30::int[], $31::text[])
      AS a(run_id, revision, ordinal, event_id, kind, run_status, occurred_at, vertex_id, vertex_label,
        completed_vertices, total_vertices, message)
    ),
    ins AS (
      INSERT INTO ${q}.runs (run_id, session_id, definition_name, definition_version, parent_run_id, input_sha256,
        idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor, artifacts,
        artifact_namespace, interrupt, created_at, updated_at, record_revision, lease_owner, lease_expires_at)
      SELECT u.run_id, u.session_id, u.definition_name, u.definition_version, u.parent_run_id, u.input_sha256,
        u.idempotency_key, u.status, u.status_summary, u.cancel_requested, u.checkpoint_revision,
        (SELECT count(*) FROM ia a WHERE a.run_id = u.run_id
          AND NOT EXISTS (SELECT 1 FROM ${q}.activities x WHERE x.event_id = a.event_id))::int,
        u.artifacts, u.artifact_namespace, u.interrupt, u.created_at, u.updated_at, u.record_revision, u.lease_owner,
        CASE WHEN u.lease_owner IS NOT NULL THEN now() + u.lease_ms * interval '1 millisecond' END
      FROM u
      ORDER BY u.ord
      ON CONFLICT DO NOTHING
      RETURNING ${RUN_COLUMNS}
    ),
    cps AS (
      INSERT INTO ${q}.checkpoints (run_id, revision, state, created_at)
      SELECT c.run_id, c.revision, c.state, c.created_at
      FROM unnest($32::text[], $33::int[], $34::text[], $35::text[]) AS c(run_id, revision, state, created_at)
      WHERE c.run_id IN (SELECT run_id FROM ins)
    ),
    relaxed AS (
      SELECT set_config('synchronous_commit',
        CASE WHEN cardinality($1::text[]) = 0 THEN 'off' ELSE current_setting('synchronous_commit') END, true)
    ),
    inp AS (
      INSERT INTO ${q}.inputs (sha256, canonical)
      SELECT n.sha256, n.canonical FROM unnest($36::text[], $37::text[]) AS n(sha256, canonical), relaxed
      ON CONFLICT (sha256) DO NOTHING
    ),
    held AS (
      SELECT i.sha256 FROM ${q}.inputs i
      WHERE i.sha256 = ANY (ARRAY(SELECT DISTINCT u.input_sha256 FROM u))
      ORDER BY i.sha256
      FOR KEY SHARE
    ),
    acts AS (
      INSERT INTO ${q}.activities (run_id, revision, ordinal, event_id, kind, run_status, occurred_at, vertex_id,
        vertex_label, completed_vertices, total_vertices, message)
      SELECT a.* FROM ia a WHERE a.run_id IN (SELECT run_id FROM ins)
      ON CONFLICT (event_id) DO NOTHING
    )
    SELECT ins.* FROM ins WHERE (SELECT count(*) FROM held) >= 0`;
}

/**
 * A record to create: as given (`seeded` undefined), or as its seed (a prepared commit on it) leaves it. Without a
 * record, the item only asks for a batch (one that writes the staged inputs).
 */
export interface CreateRow {
  readonly record?: NewRunRecord;
  readonly seeded?: { readonly record: RunRecord; readonly seed: PreparedCommit };
}

/** The parameters of `createBatchSql`: the records (with their seeds) and the staged inputs (digest → text). */
export function createBatchValues(items: readonly CreateRow[], inputs: ReadonlyMap<string, string>): unknown[] {
  const columns: unknown[][] = Array.from({ length: 19 }, () => []);
  const acts: unknown[][] = Array.from({ length: 12 }, () => []);
  const cps: unknown[][] = [[], [], [], []];
  for (const { record, seeded } of items) {
    if (record === undefined) continue;
    const r = seeded?.record ?? { ...record, record_revision: 0 };
    const lease = seeded?.seed.commit.lease;
    const json = encodeJsonColumns(r);
    [
      r.run_id,
      r.session_id,
      r.definition_name,
      r.definition_version,
      r.parent_run_id,
      r.input_sha256,
      r.idempotency_key,
      r.status,
      r.status_summary,
      r.cancel_requested,
      json.artifacts,
      json.artifact_namespace,
      json.interrupt,
      r.created_at,
      r.updated_at,
      r.checkpoint_revision,
      r.record_revision,
      lease?.worker_id ?? null,
      lease?.lease_ms ?? null,
    ].forEach((v, i) => columns[i]?.push(v));
    if (seeded === undefined) continue;
    const c = seeded.seed.commit;
    if (c.checkpoint !== undefined) {
      [c.run_id, c.checkpoint.revision, seeded.seed.checkpointState, c.checkpoint.created_at].forEach((v, i) =>
        cps[i]?.push(v),
      );
    }
    for (const entry of c.activities ?? []) activityValues(c.run_id, entry).forEach((v, i) => acts[i]?.push(v));
  }
  return [...columns, ...acts, ...cps, [...inputs.keys()], [...inputs.values()]];
}

/**
 * Writes that need no fsync of their own (inputs, lease renewals and releases) commit with synchronous_commit off for
 * their own transaction only: PostgreSQL writes WAL in order, so the next synced commit of anyone makes them durable,
 * and nothing acknowledged depends on them before that (see docs/architecture.md, "State and durability").
 */
export const UNSYNCED = `(SELECT set_config('synchronous_commit', 'off', true))`;

/**
 * Many wake-ups in one unsynced statement ($1 the channel, $2 the run ids). A NOTIFY transaction takes PostgreSQL's
 * database-wide notify lock until it has committed, so one NOTIFY per statement, each waiting for its own WAL flush,
 * would serialise every notifying worker; a wake-up is a hint sent after the write it announces was acknowledged, so
 * it needs no flush of its own.
 */
export const NOTIFY_BATCH_SQL = `WITH relaxed AS ${UNSYNCED}
    SELECT count(pg_notify($1, u.run_id)) FROM unnest($2::text[]) AS u(run_id), relaxed`;
