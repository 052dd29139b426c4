/**
 * The shared release store: PostgreSQL, for several replicas. Releases are rows of their immutable bytes with the
 * SHA-256 of those bytes and the manifest digest; the two channels are rows changed by compare-and-swap in one
 * transaction with their history row, the audit row and a NOTIFY (delivered at commit) that wakes every replica's
 * follower. Every load verifies the bytes (their recorded SHA-256, then `verifyReleaseFile`), so a row changed behind
 * the store's back is never served. Migrations are data, applied under an advisory lock (src/postgres/).
 */
import type pg from 'pg';
import type { PoolConfig } from 'pg';
import { LruCache, NotifyHub, sha256Hex } from '../../core/index.js';
import { migrateSchema, pgDriver, PostgresListener, quoteSchema, withTransaction } from '../../postgres/index.js';
import type { Release } from '../model/release.js';
import { isReleaseName } from '../model/naming.js';
import { verifyReleaseFile } from '../verify.js';
import { RELEASE_STORE_MIGRATIONS } from './postgres-migrations.js';
import {
  checkChannelUpdate,
  checkExpected,
  clampLimit,
  immutableRefusal,
  unavailableRefusal,
  verifyForPublish,
} from './refusals.js';
import { AuditAction, HISTORY_LIMITS, ReleaseChannel, StoreReason } from './types.js';
import type {
  AuditEntry,
  ChannelChange,
  ChannelRead,
  ChannelsRead,
  ChannelUpdate,
  PublishOutcome,
  ReleaseChannel as Channel,
  ReleaseInfo,
  ReleaseLoad,
  ReleaseStore,
} from './types.js';

export const DEFAULT_RELEASE_SCHEMA = 'rimthan_releases';
const CACHE_CAPACITY = 32;

export interface PostgresReleaseStoreOptions {
  readonly connectionString: string;
  /** Schema holding the tables (created when missing); default `rimthan_releases`. */
  readonly schema?: string;
  /** Shown in messages instead of the connection string (which may hold a password). */
  readonly location?: string;
  readonly pool?: PoolConfig;
}

interface InfoRow {
  release: string;
  bytes_sha256: string;
  manifest_sha256: string;
  size: number;
  published_at: Date;
  published_by: string;
}

interface ChangeRow {
  channel: Channel;
  previous: string | null;
  release: string | null;
  changed_at: Date;
  changed_by: string;
}

interface AuditRow {
  at: Date;
  actor: string;
  action: AuditAction;
  subject: string;
  previous: string | null;
  value: string | null;
}

const infoOf = (r: InfoRow): ReleaseInfo => ({
  release: r.release,
  manifest_sha256: r.manifest_sha256,
  bytes_sha256: r.bytes_sha256,
  size: r.size,
  published_at: r.published_at.toISOString(),
  published_by: r.published_by,
});

const changeOf = (r: ChangeRow): ChannelChange => ({
  channel: r.channel,
  previous: r.previous,
  release: r.release,
  changed_at: r.changed_at.toISOString(),
  changed_by: r.changed_by,
});

export class PostgresReleaseStore implements ReleaseStore {
  readonly kind = 'postgres';
  readonly location: string;
  readonly #schema: string;
  readonly #q: string;
  readonly #notifyChannel: string;
  readonly #config: PoolConfig;
  readonly #cache = new LruCache<string, { sha: string; release: Release }>(CACHE_CAPACITY);
  readonly #hub = new NotifyHub();
  #pool: pg.Pool | undefined;
  #listener: PostgresListener | undefined;

  /** Validates the options; nothing connects before `open()`. */
  constructor(options: PostgresReleaseStoreOptions) {
    this.#schema = options.schema ?? DEFAULT_RELEASE_SCHEMA;
    this.#q = quoteSchema(this.#schema);
    this.#notifyChannel = `rimthan_rel_${this.#schema}`;
    this.#config = { max: 4, ...options.pool, connectionString: options.connectionString };
    this.location = options.location ?? `postgres (schema ${this.#schema})`;
  }

  /** Connects and migrates (serialised across processes by an advisory lock). Idempotent. */
  async open(): Promise<void> {
    if (this.#pool !== undefined) return;
    const pool = new (pgDriver().Pool)(this.#config);
    pool.on('error', () => {
      // An idle client failed; the pool drops it and the next query opens a fresh one.
    });
    try {
      await migrateSchema(pool, this.#schema, {
        migrations: RELEASE_STORE_MIGRATIONS,
        versionTable: 'release_store_version',
        lockKey: 'rimthan:release-store',
        what: 'release store',
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
    this.#pool = pool;
  }

  get #db(): pg.Pool {
    if (this.#pool === undefined) throw new Error('PostgresReleaseStore is not open');
    return this.#pool;
  }

  async listReleases(): Promise<ReleaseInfo[]> {
    const rows = await this.#db.query<InfoRow>(
      `SELECT release, bytes_sha256, manifest_sha256, size, published_at, published_by
       FROM ${this.#q}.releases ORDER BY release COLLATE "C"`,
    );
    return rows.rows.map(infoOf);
  }

  async releaseInfo(release: string): Promise<ReleaseInfo | undefined> {
    if (!isReleaseName(release)) return undefined;
    const rows = await this.#db.query<InfoRow>(
      `SELECT release, bytes_sha256, manifest_sha256, size, published_at, published_by
       FROM ${this.#q}.releases WHERE release = $1`,
      [release],
    );
    const row = rows.rows[0];
    return row === undefined ? undefined : infoOf(row);
  }

  async loadRelease(release: string): Promise<ReleaseLoad> {
    if (!isReleaseName(release)) return { ok: false, reason: StoreReason.InvalidName };
    const cached = this.#cache.get(release);
    if (cached !== undefined) {
      // Only digests travel: the cached copy is served while the stored bytes still hash to what was verified.
      const rows = await this.#db.query<{ bytes_sha256: string; actual: string }>(
        `SELECT bytes_sha256, encode(sha256(bytes), 'hex') AS actual FROM ${this.#q}.releases WHERE release = $1`,
        [release],
      );
      const row = rows.rows[0];
      if (row !== undefined && row.actual === cached.sha && row.bytes_sha256 === cached.sha) {
        return { ok: true, release: cached.release };
      }
      this.#cache.delete(release);
    }
    const rows = await this.#db.query<{ bytes: Buffer; bytes_sha256: string }>(
      `SELECT bytes, bytes_sha256 FROM ${this.#q}.releases WHERE release = $1`,
      [release],
    );
    const row = rows.rows[0];
    if (row === undefined) return { ok: false, reason: StoreReason.NotFound };
    const sha = sha256Hex(row.bytes);
    if (sha !== row.bytes_sha256) return { ok: false, reason: 'release_bytes_mismatch' };
    const verified = verifyReleaseFile(row.bytes);
    if (!verified.ok) return { ok: false, reason: verified.reason };
    if (verified.release.release !== release) return { ok: false, reason: StoreReason.NameMismatch };
    this.#cache.set(release, { sha, release: verified.release });
    return { ok: true, release: verified.release };
  }

  async publishRelease(bytes: Uint8Array, actor: string): Promise<PublishOutcome> {
    const release = verifyForPublish(bytes);
    const sha = sha256Hex(bytes);
    const name = release.release;
    return withTransaction(this.#db, async (client) => {
      const inserted = await client.query(
        `INSERT INTO ${this.#q}.releases (release, bytes, bytes_sha256, manifest_sha256, size, published_at, published_by)
         VALUES ($1, $2, $3, $4, $5, now(), $6) ON CONFLICT (release) DO NOTHING`,
        [name, Buffer.from(bytes), sha, release.manifest_sha256, bytes.byteLength, actor],
      );
      const created = inserted.rowCount === 1;
      if (!created) {
        const existing = await client.query<{ bytes_sha256: string }>(
          `SELECT bytes_sha256 FROM ${this.#q}.releases WHERE release = $1`,
          [name],
        );
        if (existing.rows[0]?.bytes_sha256 !== sha) throw immutableRefusal(name);
      }
      await this.#audit(
        client,
        actor,
        AuditAction.Publish,
        name,
        null,
        created ? release.manifest_sha256 : `${release.manifest_sha256} (unchanged)`,
      );
      if (created) await client.query('SELECT pg_notify($1, $2)', [this.#notifyChannel, `release:${name}`]);
      return { release: name, manifest_sha256: release.manifest_sha256, created };
    });
  }

  async readChannels(): Promise<ChannelsRead> {
    const rows = await this.#db.query<{ channel: Channel; release: string | null; bytes_sha256: string | null }>(
      `SELECT c.channel, c.release, encode(sha256(r.bytes), 'hex') AS bytes_sha256
       FROM ${this.#q}.channels c LEFT JOIN ${this.#q}.releases r ON r.release = c.release`,
    );
    const read = (channel: Channel): ChannelRead => {
      const row = rows.rows.find((r) => r.channel === channel);
      if (row === undefined) return { ok: false, reason: StoreReason.ChannelInvalid };
      if (row.release === null) return { ok: true, release: null };
      return row.bytes_sha256 === null
        ? { ok: true, release: row.release }
        : { ok: true, release: row.release, bytes_sha256: row.bytes_sha256 };
    };
    return {
      [ReleaseChannel.Active]: read(ReleaseChannel.Active),
      [ReleaseChannel.MigrationTarget]: read(ReleaseChannel.MigrationTarget),
    };
  }

  async setChannel(update: ChannelUpdate): Promise<ChannelChange> {
    checkChannelUpdate(update);
    if (update.release !== null) {
      const loaded = await this.loadRelease(update.release);
      if (!loaded.ok) throw unavailableRefusal(update.release, loaded.reason);
    }
    return withTransaction(this.#db, async (client) => {
      const current = await client.query<{ release: string | null }>(
        `SELECT release FROM ${this.#q}.channels WHERE channel = $1 FOR UPDATE`,
        [update.channel],
      );
      const previous = current.rows[0]?.release ?? null;
      checkExpected(update, previous);
      await client.query(
        `UPDATE ${this.#q}.channels SET release = $2, changed_at = now(), changed_by = $3 WHERE channel = $1`,
        [update.channel, update.release, update.actor],
      );
      const history = await client.query<ChangeRow>(
        `INSERT INTO ${this.#q}.channel_history (channel, previous, release, changed_at, changed_by)
         VALUES ($1, $2, $3, now(), $4) RETURNING channel, previous, release, changed_at, changed_by`,
        [update.channel, previous, update.release, update.actor],
      );
      const action = update.release === null ? AuditAction.ClearChannel : AuditAction.SetChannel;
      await this.#audit(client, update.actor, action, update.channel, previous, update.release);
      await client.query('SELECT pg_notify($1, $2)', [this.#notifyChannel, `channel:${update.channel}`]);
      const row = history.rows[0];
      if (row === undefined) throw new Error('channel history row missing');
      return changeOf(row);
    });
  }

  async channelHistory(opts: { channel?: Channel; limit?: number } = {}): Promise<ChannelChange[]> {
    const limit = clampLimit(opts.limit, HISTORY_LIMITS.default, HISTORY_LIMITS.max);
    const rows = await this.#db.query<ChangeRow>(
      `SELECT channel, previous, release, changed_at, changed_by FROM ${this.#q}.channel_history
       WHERE ($1::text IS NULL OR channel = $1) ORDER BY seq DESC LIMIT $2`,
      [opts.channel ?? null, limit],
    );
    return rows.rows.map(changeOf);
  }

  async auditTrail(opts: { limit?: number } = {}): Promise<AuditEntry[]> {
    const limit = clampLimit(opts.limit, HISTORY_LIMITS.default, HISTORY_LIMITS.max);
    const rows = await this.#db.query<AuditRow>(
      `SELECT at, actor, action, subject, previous, value FROM ${this.#q}.audit ORDER BY seq DESC LIMIT $1`,
      [limit],
    );
    return rows.rows.map((r) => ({ ...r, at: r.at.toISOString() }));
  }

  /** LISTEN on the store's channel (one connection per store, reconnecting); a reconnect also calls `listener`. */
  async watch(listener: () => void): Promise<() => Promise<void>> {
    const remove = this.#hub.add(() => listener());
    if (this.#listener === undefined) {
      this.#listener = new PostgresListener(this.#config, this.#notifyChannel, this.#hub, () =>
        this.#hub.emit('connected'),
      );
      await this.#listener.start();
    }
    return async () => {
      remove();
      if (this.#hub.size === 0) {
        const l = this.#listener;
        this.#listener = undefined;
        await l?.stop();
      }
    };
  }

  async close(): Promise<void> {
    this.#hub.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.stop();
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end();
  }

  async #audit(
    client: pg.PoolClient,
    actor: string,
    action: AuditAction,
    subject: string,
    previous: string | null,
    value: string | null,
  ): Promise<void> {
    await client.query(
      `INSERT INTO ${this.#q}.audit (at, actor, action, subject, previous, value) VALUES (now(), $1, $2, $3, $4, $5)`,
      [actor, action, subject, previous, value],
    );
  }
}
