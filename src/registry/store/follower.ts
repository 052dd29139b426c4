/**
 * A replica's view of a release store's channels: the last verified active release and migration target, refreshed
 * when the store says something changed (PostgreSQL LISTEN/NOTIFY, debounced) and by a periodic poll as the fallback.
 * A release is served only after it verified; a refresh that finds a channel unreadable or its release corrupt or
 * unverifiable keeps the last verified snapshot and reports the reason once (until it changes or clears), which the
 * Admin API's `readyz` shows as `degraded`. Pinned releases (named by a checkpoint) are loaded from the store on demand
 * and kept once verified (verified-cache.ts, bounded), with the active and target releases a refresh replaced: while
 * the store cannot be reached, calls pinned to a kept release go on and the state says `store_unreachable`.
 */
import { RimthanError } from '../../core/index.js';
import type { Release } from '../model/release.js';
import { ReleaseChannel } from './types.js';
import type { ChannelRead, ReleaseStore } from './types.js';
import { VerifiedReleaseCache } from './verified-cache.js';

/** Told about what the follower does, for logs and metrics (never participant data). */
export interface FollowerEvents {
  /** A (newly) verified active release is being served. */
  onActive?(release: string): void;
  /** The migration target changed (undefined: cleared). */
  onMigrationTarget?(release: string | undefined): void;
  /** A refresh was refused and the last verified snapshot stays (once per distinct reason). */
  onRefreshFailed?(reason: string): void;
  /** A refresh succeeded again after failures. */
  onRecovered?(): void;
}

export interface FollowerOptions {
  /**
   * Start even when the store has no verified active release yet (a service whose Admin API will publish one): calls
   * needing it fail with `no_active_release` until one is activated. Default false: start refuses.
   */
  readonly allowEmpty?: boolean;
  /** How often the channels are polled (default 5000 ms; also the longest pick-up time when a notification is lost). */
  readonly pollIntervalMs?: number;
  /** How long after a notification the refresh runs, so a burst of changes is read once (default 50 ms). */
  readonly debounceMs?: number;
  readonly events?: FollowerEvents;
}

export const FOLLOWER_DEFAULTS = { pollIntervalMs: 5000, debounceMs: 50 } as const;

interface Snapshot {
  readonly release: Release;
  /** SHA-256 of the stored bytes it was verified from, when the store reports it. */
  readonly bytesSha256: string | undefined;
}

/** What `readyz` and metrics show. */
export interface FollowerState {
  /** Null until a verified active release exists (a store that started empty). */
  readonly active: { readonly release: string; readonly manifest_sha256: string } | null;
  readonly migration_target: { readonly release: string; readonly manifest_sha256: string } | null;
  /** Why the last refresh was refused (the last verified snapshot is served), or null. */
  readonly degraded: string | null;
  readonly last_refresh_at: string | null;
  readonly refreshes: number;
  readonly refresh_failures: number;
  /**
   * True while the store cannot be reached (the last refresh or pinned load failed to reach it): the verified
   * snapshots and the kept pinned releases are served meanwhile.
   */
  readonly store_unreachable: boolean;
}

const summaryOf = (s: Snapshot): { release: string; manifest_sha256: string } => ({
  release: s.release.release,
  manifest_sha256: s.release.manifest_sha256,
});

type Outcome = { ok: true; snapshot: Snapshot | undefined } | { ok: false; reason: string };

export class ReleaseFollower {
  readonly store: ReleaseStore;
  readonly #events: FollowerEvents;
  readonly #debounceMs: number;
  #active: Snapshot | undefined;
  #target: Snapshot | undefined;
  #degraded: string | null = null;
  #storeUnreachable = false;
  readonly #kept = new VerifiedReleaseCache();
  #lastRefreshAt: string | null = null;
  #refreshes = 0;
  #failures = 0;
  #running: Promise<void> | undefined;
  #again = false;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #unwatch: (() => Promise<void>) | undefined;
  #stopped = false;

  private constructor(store: ReleaseStore, active: Snapshot | undefined, opts: FollowerOptions) {
    this.store = store;
    this.#active = active;
    this.#events = opts.events ?? {};
    this.#debounceMs = opts.debounceMs ?? FOLLOWER_DEFAULTS.debounceMs;
  }

  /**
   * Loads and verifies the active release (throws `no_active_release` when there is none to start from) and the
   * migration target (a failure there starts degraded, without a target), then follows the store.
   */
  static async start(store: ReleaseStore, opts: FollowerOptions = {}): Promise<ReleaseFollower> {
    const channels = await store.readChannels();
    const active = await loadChannel(store, channels[ReleaseChannel.Active], undefined);
    const problems: string[] = [];
    if (!active.ok || active.snapshot === undefined) {
      const why = active.ok ? 'active_missing' : active.reason;
      if (opts.allowEmpty !== true) {
        throw new RimthanError('no_active_release', `no verified active release in ${store.location} (${why})`);
      }
      problems.push(`active: ${why}`);
    }
    const first = active.ok ? active.snapshot : undefined;
    const follower = new ReleaseFollower(store, first, opts);
    if (first !== undefined) follower.#events.onActive?.(first.release.release);
    const target = await loadChannel(store, channels[ReleaseChannel.MigrationTarget], undefined);
    if (target.ok) {
      follower.#target = target.snapshot;
      if (target.snapshot !== undefined) follower.#events.onMigrationTarget?.(target.snapshot.release.release);
    } else problems.push(`migration-target: ${target.reason}`);
    follower.#settle(problems);
    const interval = opts.pollIntervalMs ?? FOLLOWER_DEFAULTS.pollIntervalMs;
    if (interval > 0) {
      follower.#poll = setInterval(() => void follower.refresh(), interval);
      follower.#poll.unref();
    }
    if (store.watch !== undefined) follower.#unwatch = await store.watch(() => follower.#soon());
    return follower;
  }

  /** The last verified active release; throws `no_active_release` while the store has never had one. */
  active(): Release {
    if (this.#active === undefined) {
      throw new RimthanError('no_active_release', 'the release store has no verified active release yet');
    }
    return this.#active.release;
  }

  /** The last verified migration target, or undefined when none is set. */
  migrationTarget(): Release | undefined {
    return this.#target?.release;
  }

  /** A release by name (the active one, the target, or loaded and verified from the store), or undefined. */
  async pinned(name: string): Promise<Release | undefined> {
    if (this.#active !== undefined && name === this.#active.release.release) return this.#active.release;
    if (this.#target !== undefined && name === this.#target.release.release) return this.#target.release;
    const loaded = await this.#kept.load(name, (n) => this.store.loadRelease(n), this.#storeUnreachable);
    if (loaded.fromCache) this.#storeUnreachable = true;
    return loaded.release;
  }

  state(): FollowerState {
    return {
      active: this.#active === undefined ? null : summaryOf(this.#active),
      migration_target: this.#target === undefined ? null : summaryOf(this.#target),
      degraded: this.#degraded,
      last_refresh_at: this.#lastRefreshAt,
      refreshes: this.#refreshes,
      refresh_failures: this.#failures,
      store_unreachable: this.#storeUnreachable,
    };
  }

  /** Re-reads the channels now (one refresh at a time; a request during one runs once more after it). */
  refresh(): Promise<void> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#refreshOnce();
        } while (this.#again && !this.#stopped);
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  /** Stops polling and listening. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#poll !== undefined) clearInterval(this.#poll);
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    const unwatch = this.#unwatch;
    this.#unwatch = undefined;
    await unwatch?.();
    await this.#running?.catch(() => undefined);
  }

  #soon(): void {
    if (this.#stopped || this.#debounce !== undefined) return;
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.refresh();
    }, this.#debounceMs);
    this.#debounce.unref();
  }

  async #refreshOnce(): Promise<void> {
    if (this.#stopped) return;
    let channels;
    try {
      channels = await this.store.readChannels();
    } catch {
      this.#settle(['store_unreachable']);
      return;
    }
    const problems: string[] = [];
    const active = await loadChannel(this.store, channels[ReleaseChannel.Active], this.#active);
    if (!active.ok) problems.push(`active: ${active.reason}`);
    else if (active.snapshot === undefined) problems.push('active: active_missing');
    else if (active.snapshot !== this.#active) {
      if (this.#active !== undefined) this.#kept.keep(this.#active.release);
      this.#active = active.snapshot;
      this.#events.onActive?.(active.snapshot.release.release);
    }
    const target = await loadChannel(this.store, channels[ReleaseChannel.MigrationTarget], this.#target);
    if (!target.ok) problems.push(`migration-target: ${target.reason}`);
    else if (target.snapshot !== this.#target) {
      if (this.#target !== undefined) this.#kept.keep(this.#target.release);
      this.#target = target.snapshot;
      this.#events.onMigrationTarget?.(target.snapshot?.release.release);
    }
    this.#settle(problems);
  }

  #settle(problems: readonly string[]): void {
    this.#storeUnreachable = problems.some((p) => p.endsWith('store_unreachable'));
    this.#refreshes += 1;
    this.#lastRefreshAt = new Date().toISOString();
    const reason = problems.length === 0 ? null : problems.join('; ');
    if (reason !== null) this.#failures += 1;
    if (reason !== null && reason !== this.#degraded) this.#events.onRefreshFailed?.(reason);
    if (reason === null && this.#degraded !== null) this.#events.onRecovered?.();
    this.#degraded = reason;
  }
}

/**
 * What a channel read means for the snapshot `current`: the same snapshot when the name and stored bytes are
 * unchanged, a new verified snapshot, none (the channel is empty), or why it cannot be served.
 */
async function loadChannel(store: ReleaseStore, read: ChannelRead, current: Snapshot | undefined): Promise<Outcome> {
  if (!read.ok) return read;
  if (read.release === null) return { ok: true, snapshot: undefined };
  if (
    current !== undefined &&
    current.release.release === read.release &&
    (read.bytes_sha256 === undefined || read.bytes_sha256 === current.bytesSha256)
  ) {
    return { ok: true, snapshot: current };
  }
  let loaded;
  try {
    loaded = await store.loadRelease(read.release);
  } catch {
    return { ok: false, reason: 'store_unreachable' };
  }
  if (!loaded.ok) return { ok: false, reason: `${read.release} ${loaded.reason}` };
  if (
    current !== undefined &&
    current.release.manifest_sha256 === loaded.release.manifest_sha256 &&
    current.release.release === loaded.release.release
  ) {
    return { ok: true, snapshot: current };
  }
  return { ok: true, snapshot: { release: loaded.release, bytesSha256: read.bytes_sha256 } };
}
