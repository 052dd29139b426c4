/**
 * The PostgreSQL release store's migrations as data (applied by src/postgres/migrate.ts, one per transaction under an
 * advisory lock). Never edit a shipped entry; append a new one. `{s}` is the quoted schema.
 */
import type { PostgresMigration } from '../../postgres/index.js';

const CHANNELS = "('active', 'migration-target')";
const ACTIONS = "('release.publish', 'channel.set', 'channel.clear')";

export const RELEASE_STORE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    name: '001-releases-channels-history-audit',
    postgres: [
      `CREATE TABLE {s}.releases (
        release TEXT PRIMARY KEY,
        bytes BYTEA NOT NULL,
        bytes_sha256 TEXT NOT NULL CHECK (bytes_sha256 ~ '^[0-9a-f]{64}$'),
        manifest_sha256 TEXT NOT NULL CHECK (manifest_sha256 ~ '^[0-9a-f]{64}$'),
        size INTEGER NOT NULL CHECK (size > 0),
        published_at TIMESTAMPTZ NOT NULL,
        published_by TEXT NOT NULL
      )`,
      `CREATE TABLE {s}.channels (
        channel TEXT PRIMARY KEY CHECK (channel IN ${CHANNELS}),
        release TEXT REFERENCES {s}.releases (release),
        changed_at TIMESTAMPTZ,
        changed_by TEXT
      )`,
      `INSERT INTO {s}.channels (channel) VALUES ('active'), ('migration-target')`,
      `CREATE TABLE {s}.channel_history (
        seq BIGSERIAL PRIMARY KEY,
        channel TEXT NOT NULL CHECK (channel IN ${CHANNELS}),
        previous TEXT,
        release TEXT,
        changed_at TIMESTAMPTZ NOT NULL,
        changed_by TEXT NOT NULL
      )`,
      `CREATE TABLE {s}.audit (
        seq BIGSERIAL PRIMARY KEY,
        at TIMESTAMPTZ NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ${ACTIONS}),
        subject TEXT NOT NULL,
        previous TEXT,
        value TEXT
      )`,
    ],
  },
];
