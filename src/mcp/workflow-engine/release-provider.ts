/**
 * Adapts a registry release store to the MCP layer. `followerReleaseProvider`: a replica's follower (any store,
 * folder or PostgreSQL; channels followed by notification and poll, the migration target verified separately).
 * `storeReleaseProvider`: a synchronous folder source read lazily, the active release through an ActiveReleaseChannel
 * refreshed at most once per interval (a corrupt refresh keeps the last verified snapshot and is reported once per
 * reason), for embedding and tests. Both serve any published release by name for pinned checkpoints and resource reads.
 */
import { ActiveReleaseChannel } from '../../registry/store/index.js';
import type { ChannelRead, Release, ReleaseFollower, ReleaseSource as RegistryStore } from '../../registry/index.js';
import type { ReleaseProvider } from './release-scopes.js';

export interface StoreProviderOptions {
  /** Minimum time between two reads of the active pointer (default 1000 ms; 0 re-reads on every request). */
  readonly refreshIntervalMs?: number;
  /** Monotonic milliseconds (injectable for tests). */
  readonly now?: () => number;
  /** Told when a refresh is refused and the last verified snapshot stays active (once per distinct reason). */
  readonly onRefreshRefused?: (reason: string) => void;
}

/** A source that may also name a migration target (the folder store's MIGRATION_TARGET file). */
type SourceWithTarget = RegistryStore & { readMigrationTarget?(): ChannelRead };

/** A ReleaseProvider over a release store. Throws `no_active_release` when the store has no verified active release. */
export function storeReleaseProvider(store: SourceWithTarget, opts: StoreProviderOptions = {}): ReleaseProvider {
  const channel = new ActiveReleaseChannel(store);
  const interval = opts.refreshIntervalMs ?? 1000;
  const now = opts.now ?? (() => performance.now());
  let lastRefresh = now();
  let lastReason: string | undefined;
  return {
    active(): Promise<Release> {
      const t = now();
      if (t - lastRefresh >= interval) {
        lastRefresh = t;
        const result = channel.refresh();
        if (!result.ok && result.reason !== lastReason) opts.onRefreshRefused?.(result.reason);
        lastReason = result.ok ? undefined : result.reason;
      }
      return Promise.resolve(channel.current());
    },
    load(release: string): Promise<Release | undefined> {
      const result = store.read(release);
      return Promise.resolve(result.ok ? result.release : undefined);
    },
    migrationTarget(): Promise<Release | undefined> {
      const named = store.readMigrationTarget?.();
      if (named === undefined || !named.ok || named.release === null) return Promise.resolve(undefined);
      const result = store.read(named.release);
      return Promise.resolve(result.ok ? result.release : undefined);
    },
  };
}

/** A ReleaseProvider over a running follower: its verified snapshots, pinned releases loaded from its store. */
export function followerReleaseProvider(follower: ReleaseFollower): ReleaseProvider {
  return {
    active: () => Promise.resolve(follower.active()),
    load: (release) => follower.pinned(release),
    migrationTarget: () => Promise.resolve(follower.migrationTarget()),
  };
}
