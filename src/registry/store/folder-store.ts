/**
 * A release store on disk: immutable release files `<dir>/<release>.json`, an `ACTIVE` file naming the active release
 * and an optional `MIGRATION_TARGET` file naming the migration target, beside them the append-only journals
 * `channel-history.jsonl` and `audit.jsonl`. Every load reads the file and verifies it (digests, shape, authoring
 * rules; the verified result is cached by the SHA-256 of its bytes, bounded LRU), so a release removed or changed on
 * disk is never served from memory and a channel cannot be pointed at it (as the PostgreSQL store refuses it); names
 * are checked before any path is built from them. One process writes a folder store: changes are
 * serialised inside the process, not across processes (replicas share a PostgreSQL store instead).
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LruCache, sha256Hex } from '../../core/index.js';
import type { Release, ReleaseFile } from '../model/release.js';
import { serializeReleaseFile } from '../manifest.js';
import { isReleaseName } from '../model/naming.js';
import { cmp } from '../problems.js';
import { MAX_RELEASE_BYTES, verifyReleaseFile } from '../verify.js';
import { createExclusive, replaceAtomically } from './atomic-write.js';
import { appendJournal, readJournal, textOf } from './folder-journal.js';
import {
  checkChannelUpdate,
  checkExpected,
  clampLimit,
  immutableRefusal,
  unavailableRefusal,
  verifyForPublish,
} from './refusals.js';
import { AuditAction, HISTORY_LIMITS, isReleaseChannel, ReleaseChannel, StoreReason } from './types.js';
import type {
  ActiveName,
  AuditEntry,
  ChannelChange,
  ChannelRead,
  ChannelsRead,
  ChannelUpdate,
  PublishOutcome,
  ReleaseInfo,
  ReleaseLoad,
  ReleaseSource,
  ReleaseStore,
} from './types.js';

const MAX_POINTER_BYTES = 256;
/** Verified releases kept in memory per store. */
const CACHE_CAPACITY = 32;
/** Who changes a channel through the synchronous `activate` (a local operator, not an admin principal). */
const LOCAL_ACTOR = 'local';

export interface FolderStoreOptions {
  /** Where the active-release pointer lives (default `<dir>/ACTIVE`). */
  readonly activeFile?: string;
  /** Where the migration-target pointer lives (default `MIGRATION_TARGET` beside the active pointer). */
  readonly migrationTargetFile?: string;
}

export type PublishResult = { readonly release: string; readonly created: boolean };

const now = (): string => new Date().toISOString();

/** Immutable release files in one folder plus the channel pointers and journals; loads are verified and cached. */
export class FolderReleaseStore implements ReleaseSource, ReleaseStore {
  readonly kind = 'folder';
  readonly dir: string;
  readonly activeFile: string;
  readonly migrationTargetFile: string;
  readonly historyFile: string;
  readonly auditFile: string;
  /** Verified releases by name, with the SHA-256 of the bytes they were verified from. */
  readonly #cache = new LruCache<string, { readonly sha: string; readonly release: Release }>(CACHE_CAPACITY);
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string, options: FolderStoreOptions = {}) {
    this.dir = dir;
    this.activeFile = options.activeFile ?? join(dir, 'ACTIVE');
    const meta = dirname(this.activeFile);
    this.migrationTargetFile = options.migrationTargetFile ?? join(meta, 'MIGRATION_TARGET');
    this.historyFile = join(meta, 'channel-history.jsonl');
    this.auditFile = join(meta, 'audit.jsonl');
  }

  get location(): string {
    return this.dir;
  }

  /** Names of the release files in the folder, sorted (unverified: use {@link load} to trust one). */
  list(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter(isReleaseName)
      .sort(cmp);
  }

  /** The verified release, or undefined when it is missing, unreadable or fails verification. */
  load(release: string): Release | undefined {
    const result = this.read(release);
    return result.ok ? result.release : undefined;
  }

  /** Like {@link load} but says why a release is unavailable. */
  read(release: string): ReleaseLoad {
    if (!isReleaseName(release)) return { ok: false, reason: StoreReason.InvalidName };
    // The file is read every time: a release removed or replaced on disk is never answered from memory.
    const bytes = readBounded(this.#pathOf(release), MAX_RELEASE_BYTES);
    if (!bytes.ok) {
      this.#cache.delete(release);
      return bytes;
    }
    const sha = sha256Hex(bytes.bytes);
    const cached = this.#cache.get(release);
    if (cached !== undefined && cached.sha === sha) return { ok: true, release: cached.release };
    this.#cache.delete(release);
    const verified = verifyReleaseFile(bytes.bytes);
    if (!verified.ok) return { ok: false, reason: verified.reason };
    if (verified.release.release !== release) return { ok: false, reason: StoreReason.NameMismatch };
    this.#cache.set(release, { sha, release: verified.release });
    return verified;
  }

  /** The active release name from the ACTIVE file. */
  readActive(): ActiveName {
    const read = readPointer(this.activeFile);
    if (read.ok && read.release !== null) return { ok: true, release: read.release };
    return { ok: false, reason: read.ok ? StoreReason.ActiveMissing : StoreReason.ActiveInvalid };
  }

  /** The migration target named by MIGRATION_TARGET (null when the file is absent). */
  readMigrationTarget(): ChannelRead {
    return readPointer(this.migrationTargetFile);
  }

  /**
   * Adds a release file. Releases are immutable: publishing the same bytes again is a no-op, a different file under
   * an existing name throws `release_immutable`; a file that does not verify throws `release_invalid`.
   */
  publish(file: ReleaseFile): PublishResult {
    const { release, created } = this.#publishBytes(serializeReleaseFile(file));
    return { release: release.release, created };
  }

  /** Makes a verified release the active one (throws `release_unavailable` when it does not load); kept in history. */
  activate(release: string): void {
    this.#setChannelNow({ channel: ReleaseChannel.Active, release, actor: LOCAL_ACTOR });
  }

  // ReleaseStore (asynchronous; the same files).

  listReleases(): Promise<ReleaseInfo[]> {
    const published = this.#publications();
    return Promise.resolve(
      this.list()
        .map((name) => this.#infoOf(name, published))
        .filter((i): i is ReleaseInfo => i !== undefined),
    );
  }

  releaseInfo(release: string): Promise<ReleaseInfo | undefined> {
    return Promise.resolve(isReleaseName(release) ? this.#infoOf(release, this.#publications()) : undefined);
  }

  loadRelease(release: string): Promise<ReleaseLoad> {
    return Promise.resolve(this.read(release));
  }

  publishRelease(bytes: Uint8Array, actor: string): Promise<PublishOutcome> {
    return this.#serial(() => {
      const { release, created } = this.#publishBytes(bytes);
      appendJournal(this.auditFile, {
        at: now(),
        actor,
        action: AuditAction.Publish,
        subject: release.release,
        previous: null,
        value: created ? release.manifest_sha256 : `${release.manifest_sha256} (unchanged)`,
      });
      return { release: release.release, manifest_sha256: release.manifest_sha256, created };
    });
  }

  readChannels(): Promise<ChannelsRead> {
    const active = readPointer(this.activeFile);
    return Promise.resolve({
      [ReleaseChannel.Active]: active,
      [ReleaseChannel.MigrationTarget]: this.readMigrationTarget(),
    });
  }

  setChannel(update: ChannelUpdate): Promise<ChannelChange> {
    return this.#serial(() => this.#setChannelNow(update));
  }

  channelHistory(opts: { channel?: ReleaseChannel; limit?: number } = {}): Promise<ChannelChange[]> {
    const limit = clampLimit(opts.limit, HISTORY_LIMITS.default, HISTORY_LIMITS.max);
    const changes: ChannelChange[] = [];
    for (const e of readJournal(this.historyFile)) {
      const channel = textOf(e, 'channel');
      if (channel === null || !isReleaseChannel(channel)) continue;
      if (opts.channel !== undefined && channel !== opts.channel) continue;
      changes.push({
        channel,
        previous: textOf(e, 'previous'),
        release: textOf(e, 'release'),
        changed_at: textOf(e, 'changed_at') ?? '',
        changed_by: textOf(e, 'changed_by') ?? '',
      });
    }
    return Promise.resolve(changes.reverse().slice(0, limit));
  }

  auditTrail(opts: { limit?: number } = {}): Promise<AuditEntry[]> {
    const limit = clampLimit(opts.limit, HISTORY_LIMITS.default, HISTORY_LIMITS.max);
    const entries: AuditEntry[] = [];
    for (const e of readJournal(this.auditFile)) {
      const action = textOf(e, 'action');
      if (action === null || !(Object.values(AuditAction) as string[]).includes(action)) continue;
      entries.push({
        at: textOf(e, 'at') ?? '',
        actor: textOf(e, 'actor') ?? '',
        action: action as AuditAction,
        subject: textOf(e, 'subject') ?? '',
        previous: textOf(e, 'previous'),
        value: textOf(e, 'value'),
      });
    }
    return Promise.resolve(entries.reverse().slice(0, limit));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #pathOf(release: string): string {
    return join(this.dir, `${release}.json`);
  }

  /** Runs one change after the previous ones (in this process). */
  #serial<T>(fn: () => T): Promise<T> {
    const next = this.#queue.then(fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #publishBytes(bytes: Uint8Array): { release: Release; created: boolean } {
    const release = verifyForPublish(bytes);
    const path = this.#pathOf(release.release);
    mkdirSync(this.dir, { recursive: true });
    if (createExclusive(path, bytes)) return { release, created: true };
    const existing = readBounded(path, MAX_RELEASE_BYTES);
    if (existing.ok && Buffer.from(existing.bytes).equals(bytes)) return { release, created: false };
    throw immutableRefusal(release.release);
  }

  #setChannelNow(update: ChannelUpdate): ChannelChange {
    checkChannelUpdate(update);
    const file = update.channel === ReleaseChannel.Active ? this.activeFile : this.migrationTargetFile;
    const current = readPointer(file);
    const previous = current.ok ? current.release : null;
    checkExpected(update, previous);
    if (update.release !== null) {
      const loaded = this.read(update.release);
      if (!loaded.ok) throw unavailableRefusal(update.release, loaded.reason);
      mkdirSync(dirname(file), { recursive: true });
      replaceAtomically(file, new TextEncoder().encode(`${update.release}\n`));
    } else {
      rmSync(file, { force: true });
    }
    const change: ChannelChange = {
      channel: update.channel,
      previous,
      release: update.release,
      changed_at: now(),
      changed_by: update.actor,
    };
    appendJournal(this.historyFile, { ...change });
    appendJournal(this.auditFile, {
      at: change.changed_at,
      actor: update.actor,
      action: update.release === null ? AuditAction.ClearChannel : AuditAction.SetChannel,
      subject: update.channel,
      previous,
      value: update.release,
    });
    return change;
  }

  /** Who published each release and when, from the audit journal (first publication wins). */
  #publications(): Map<string, { at: string; by: string }> {
    const published = new Map<string, { at: string; by: string }>();
    for (const e of readJournal(this.auditFile)) {
      const subject = textOf(e, 'subject');
      if (textOf(e, 'action') !== AuditAction.Publish || subject === null || published.has(subject)) continue;
      published.set(subject, { at: textOf(e, 'at') ?? '', by: textOf(e, 'actor') ?? '' });
    }
    return published;
  }

  #infoOf(name: string, published: Map<string, { at: string; by: string }>): ReleaseInfo | undefined {
    const bytes = readBounded(this.#pathOf(name), MAX_RELEASE_BYTES);
    if (!bytes.ok) return undefined;
    const loaded = this.read(name);
    const by = published.get(name);
    return {
      release: name,
      manifest_sha256: loaded.ok ? loaded.release.manifest_sha256 : null,
      bytes_sha256: sha256Hex(bytes.bytes),
      size: bytes.bytes.byteLength,
      published_at: by?.at ?? null,
      published_by: by?.by ?? null,
    };
  }
}

/** A pointer file: absent → null, a release name (one line) → it, anything else → channel_invalid. */
function readPointer(path: string): ChannelRead {
  const bytes = readBounded(path, MAX_POINTER_BYTES);
  if (!bytes.ok) {
    return bytes.reason === StoreReason.NotFound
      ? { ok: true, release: null }
      : { ok: false, reason: StoreReason.ChannelInvalid };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.bytes);
  } catch {
    return { ok: false, reason: StoreReason.ChannelInvalid };
  }
  const name = text.endsWith('\n') ? text.slice(0, -1) : text;
  return isReleaseName(name) ? { ok: true, release: name } : { ok: false, reason: StoreReason.ChannelInvalid };
}

/** Reads a regular file of at most `max` bytes. */
function readBounded(path: string, max: number): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { ok: false, reason: StoreReason.NotFound };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: StoreReason.NotFound };
    if (stat.size > max) return { ok: false, reason: 'release_too_large' };
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > stat.size) return { ok: false, reason: 'release_too_large' };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch {
    return { ok: false, reason: StoreReason.NotFound };
  } finally {
    closeSync(fd);
  }
}
