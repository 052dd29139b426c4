/**
 * Store migrations as data: an ordered list, each entry applied together with its `schema_version` bump in one
 * transaction. Version N means the first N entries are applied. Never edit a shipped entry; append a new one.
 *
 * PostgreSQL statements use the token `{s}` for the (quoted) schema name the store was opened with.
 */
export interface Migration {
  readonly name: string;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
}

const STATUS_CHECK = "('pending','running','interrupted','completed','cancelled','failed')";
const KIND_CHECK =
  "('run_started','vertex_completed','run_interrupted','run_resumed','run_completed','run_cancelled','run_failed')";

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '001-runs-inputs-checkpoints-activities',
    sqlite: [
      `CREATE TABLE runs (
        created_seq INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        definition_name TEXT NOT NULL,
        definition_version TEXT NOT NULL,
        parent_run_id TEXT,
        input_sha256 TEXT NOT NULL,
        idempotency_key TEXT,
        status TEXT NOT NULL CHECK (status IN ${STATUS_CHECK}),
        status_summary TEXT NOT NULL,
        cancel_requested INTEGER NOT NULL CHECK (cancel_requested IN (0, 1)),
        checkpoint_revision INTEGER NOT NULL CHECK (checkpoint_revision >= -1),
        activity_cursor INTEGER NOT NULL CHECK (activity_cursor >= 0),
        artifacts TEXT NOT NULL,
        artifact_namespace TEXT NOT NULL,
        interrupt TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        record_revision INTEGER NOT NULL CHECK (record_revision >= 0),
        lease_owner TEXT,
        lease_expires_at INTEGER
      )`,
      `CREATE UNIQUE INDEX runs_session_idempotency ON runs (session_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL`,
      'CREATE INDEX runs_session_seq ON runs (session_id, created_seq)',
      `CREATE INDEX runs_claimable ON runs (created_seq)
        WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0`,
      'CREATE TABLE inputs (sha256 TEXT PRIMARY KEY, canonical TEXT NOT NULL) WITHOUT ROWID',
      `CREATE TABLE checkpoints (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, revision)
      ) WITHOUT ROWID`,
      `CREATE TABLE activities (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        ordinal INTEGER NOT NULL CHECK (ordinal >= 0),
        event_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ${KIND_CHECK}),
        run_status TEXT NOT NULL CHECK (run_status IN ${STATUS_CHECK}),
        occurred_at TEXT NOT NULL,
        vertex_id TEXT,
        vertex_label TEXT,
        completed_vertices INTEGER,
        total_vertices INTEGER,
        message TEXT,
        PRIMARY KEY (run_id, revision, ordinal)
      ) WITHOUT ROWID`,
    ],
    postgres: [
      `CREATE TABLE {s}.runs (
        created_seq BIGSERIAL PRIMARY KEY,
        run_id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        definition_name TEXT NOT NULL,
        definition_version TEXT NOT NULL,
        parent_run_id TEXT,
        input_sha256 TEXT NOT NULL,
        idempotency_key TEXT,
        status TEXT NOT NULL CHECK (status IN ${STATUS_CHECK}),
        status_summary TEXT NOT NULL,
        cancel_requested BOOLEAN NOT NULL,
        checkpoint_revision INTEGER NOT NULL CHECK (checkpoint_revision >= -1),
        activity_cursor INTEGER NOT NULL CHECK (activity_cursor >= 0),
        artifacts TEXT NOT NULL,
        artifact_namespace TEXT NOT NULL,
        interrupt TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        record_revision INTEGER NOT NULL CHECK (record_revision >= 0),
        lease_owner TEXT,
        lease_expires_at TIMESTAMPTZ
      )`,
      `CREATE UNIQUE INDEX runs_session_idempotency ON {s}.runs (session_id, idempotency_key)
        WHERE idempotency_key IS NOT NULL`,
      'CREATE INDEX runs_session_seq ON {s}.runs (session_id, created_seq)',
      `CREATE INDEX runs_claimable ON {s}.runs (created_seq)
        WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0`,
      'CREATE TABLE {s}.inputs (sha256 TEXT PRIMARY KEY, canonical TEXT NOT NULL)',
      `CREATE TABLE {s}.checkpoints (
        run_id TEXT NOT NULL REFERENCES {s}.runs (run_id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, revision)
      )`,
      `CREATE TABLE {s}.activities (
        run_id TEXT NOT NULL REFERENCES {s}.runs (run_id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        ordinal INTEGER NOT NULL CHECK (ordinal >= 0),
        event_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ${KIND_CHECK}),
        run_status TEXT NOT NULL CHECK (run_status IN ${STATUS_CHECK}),
        occurred_at TEXT NOT NULL,
        vertex_id TEXT,
        vertex_label TEXT,
        completed_vertices INTEGER,
        total_vertices INTEGER,
        message TEXT,
        PRIMARY KEY (run_id, revision, ordinal)
      )`,
    ],
  },
  {
    // Finds runs whose start was never acknowledged (pending, no seed) without scanning the table.
    name: '002-runs-unseeded-index',
    sqlite: [`CREATE INDEX runs_unseeded ON runs (created_seq) WHERE status = 'pending' AND checkpoint_revision < 0`],
    postgres: [
      `CREATE INDEX runs_unseeded ON {s}.runs (created_seq) WHERE status = 'pending' AND checkpoint_revision < 0`,
    ],
  },
  {
    // The deploy check at start-up (definitionsInUse, runsOfDefinition) reads only the non-terminal runs.
    name: '003-runs-active-definition-index',
    sqlite: [
      `CREATE INDEX runs_active_definition ON runs (definition_name, definition_version, created_seq)
        WHERE status IN ('pending', 'running', 'interrupted')`,
    ],
    postgres: [
      `CREATE INDEX runs_active_definition ON {s}.runs (definition_name, definition_version, created_seq)
        WHERE status IN ('pending', 'running', 'interrupted')`,
    ],
  },
  {
    // listSessions reads sessions in byte order on both backends: SQLite's BINARY collation already is; PostgreSQL's
    // column takes collation "C" (its indexes are rebuilt, the table is not), so (session_id, created_seq) serves it.
    name: '004-runs-session-byte-order',
    sqlite: [],
    postgres: ['ALTER TABLE {s}.runs ALTER COLUMN session_id TYPE TEXT COLLATE "C"'],
  },
  {
    // Durable waits (issue 22): a parked run is `running` with no lease and `wait_until` set (a timer, an event or a
    // child run it awaits); claims take it once that instant passes or an event or child wakes it early. Claims read
    // unparked and due runs through two partial indexes, so thousands of sleeping runs cost a claim nothing.
    // Events sent to a run are kept once per (run, event id), numbered per name in arrival order.
    name: '005-run-waits-events',
    sqlite: [
      'ALTER TABLE runs ADD COLUMN wait_until INTEGER',
      'ALTER TABLE runs ADD COLUMN wait_event TEXT',
      'ALTER TABLE runs ADD COLUMN wait_child TEXT',
      'DROP INDEX runs_claimable',
      `CREATE INDEX runs_ready ON runs (created_seq)
        WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0 AND wait_until IS NULL`,
      'CREATE INDEX runs_wait_until ON runs (wait_until) WHERE wait_until IS NOT NULL',
      'CREATE INDEX runs_parent ON runs (parent_run_id, created_seq) WHERE parent_run_id IS NOT NULL',
      `CREATE TABLE run_events (
        run_id TEXT NOT NULL REFERENCES runs (run_id),
        event_id TEXT NOT NULL,
        name TEXT NOT NULL,
        position INTEGER NOT NULL CHECK (position >= 0),
        payload TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        PRIMARY KEY (run_id, event_id),
        UNIQUE (run_id, name, position)
      ) WITHOUT ROWID`,
    ],
    postgres: [
      'ALTER TABLE {s}.runs ADD COLUMN wait_until BIGINT',
      'ALTER TABLE {s}.runs ADD COLUMN wait_event TEXT',
      'ALTER TABLE {s}.runs ADD COLUMN wait_child TEXT',
      'DROP INDEX {s}.runs_claimable',
      `CREATE INDEX runs_ready ON {s}.runs (created_seq)
        WHERE status IN ('pending', 'running') AND checkpoint_revision >= 0 AND wait_until IS NULL`,
      'CREATE INDEX runs_wait_until ON {s}.runs (wait_until) WHERE wait_until IS NOT NULL',
      'CREATE INDEX runs_parent ON {s}.runs (parent_run_id, created_seq) WHERE parent_run_id IS NOT NULL',
      `CREATE TABLE {s}.run_events (
        run_id TEXT NOT NULL REFERENCES {s}.runs (run_id),
        event_id TEXT NOT NULL,
        name TEXT NOT NULL,
        position INTEGER NOT NULL CHECK (position >= 0),
        payload TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        PRIMARY KEY (run_id, event_id),
        UNIQUE (run_id, name, position)
      )`,
    ],
  },
  {
    // Flow schedules (issue 22): one row per flow name and schedule id, owned by the latest registered version of the
    // name (a worker syncs its catalog's declarations at start). Every change is a compare-and-swap on `revision`, so
    // a tick is taken once across workers; the run it starts carries an idempotency key derived from the tick.
    name: '006-flow-schedules',
    sqlite: [
      `CREATE TABLE run_schedules (
        definition_name TEXT NOT NULL,
        schedule_id TEXT NOT NULL,
        definition_version TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        overlap TEXT NOT NULL CHECK (overlap IN ('skip', 'buffer_one', 'allow')),
        catch_up TEXT NOT NULL CHECK (catch_up IN ('none', 'latest', 'all')),
        next_tick_at INTEGER NOT NULL,
        pending_tick_at INTEGER,
        buffered_tick_at INTEGER,
        last_tick_at INTEGER,
        last_run_id TEXT,
        started INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0,
        missed INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        last_error TEXT NOT NULL DEFAULT '',
        revision INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (definition_name, schedule_id)
      ) WITHOUT ROWID`,
    ],
    postgres: [
      `CREATE TABLE {s}.run_schedules (
        definition_name TEXT COLLATE "C" NOT NULL,
        schedule_id TEXT COLLATE "C" NOT NULL,
        definition_version TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        overlap TEXT NOT NULL CHECK (overlap IN ('skip', 'buffer_one', 'allow')),
        catch_up TEXT NOT NULL CHECK (catch_up IN ('none', 'latest', 'all')),
        next_tick_at BIGINT NOT NULL,
        pending_tick_at BIGINT,
        buffered_tick_at BIGINT,
        last_tick_at BIGINT,
        last_run_id TEXT,
        started BIGINT NOT NULL DEFAULT 0,
        skipped BIGINT NOT NULL DEFAULT 0,
        missed BIGINT NOT NULL DEFAULT 0,
        failed BIGINT NOT NULL DEFAULT 0,
        last_error TEXT NOT NULL DEFAULT '',
        revision BIGINT NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (definition_name, schedule_id)
      )`,
    ],
  },
  {
    // Concurrency limits per key (issue 22; see RunConcurrency): a run of a limited flow carries its slot key; one
    // row per (flow name, key) holds the limit and is the lock that admission and promotion take. A run waiting for a
    // slot is `pending` with its seed and `wait_until` set, which no claim ever takes (claims read only unparked
    // pending runs). Both indexes are partial on `slot_key`, so runs of unlimited flows add nothing to them.
    name: '007-concurrency-slots',
    sqlite: [
      'ALTER TABLE runs ADD COLUMN slot_key TEXT',
      `CREATE INDEX runs_slot_holders ON runs (definition_name, slot_key)
        WHERE slot_key IS NOT NULL AND status IN ('pending', 'running', 'interrupted')`,
      `CREATE INDEX runs_slot_waiting ON runs (definition_name, slot_key, created_seq)
        WHERE slot_key IS NOT NULL AND status = 'pending' AND wait_until IS NOT NULL`,
      `CREATE TABLE run_slot_keys (
        definition_name TEXT NOT NULL,
        slot_key TEXT NOT NULL,
        slot_limit INTEGER NOT NULL CHECK (slot_limit >= 1),
        PRIMARY KEY (definition_name, slot_key)
      ) WITHOUT ROWID`,
    ],
    postgres: [
      'ALTER TABLE {s}.runs ADD COLUMN slot_key TEXT COLLATE "C"',
      `CREATE INDEX runs_slot_holders ON {s}.runs (definition_name, slot_key)
        WHERE slot_key IS NOT NULL AND status IN ('pending', 'running', 'interrupted')`,
      `CREATE INDEX runs_slot_waiting ON {s}.runs (definition_name, slot_key, created_seq)
        WHERE slot_key IS NOT NULL AND status = 'pending' AND wait_until IS NOT NULL`,
      `CREATE TABLE {s}.run_slot_keys (
        definition_name TEXT NOT NULL,
        slot_key TEXT COLLATE "C" NOT NULL,
        slot_limit INTEGER NOT NULL CHECK (slot_limit >= 1),
        PRIMARY KEY (definition_name, slot_key)
      )`,
    ],
  },
  {
    // Retention (issue 22): prunes read each flow's finished runs in finishing order (updated_at, then created_seq:
    // SQLite's rowid, in every index), and check whether a pruned run's canonical input is still referred to.
    name: '008-retention-index',
    sqlite: [
      `CREATE INDEX runs_finished ON runs (definition_name, updated_at)
        WHERE status IN ('completed', 'cancelled', 'failed')`,
      'CREATE INDEX runs_input ON runs (input_sha256)',
    ],
    postgres: [
      `CREATE INDEX runs_finished ON {s}.runs (definition_name, updated_at, created_seq)
        WHERE status IN ('completed', 'cancelled', 'failed')`,
      'CREATE INDEX runs_input ON {s}.runs (input_sha256)',
    ],
  },
];

/** The schema version this code writes; a database at a higher version was written by newer code. */
export const SCHEMA_VERSION = MIGRATIONS.length;
