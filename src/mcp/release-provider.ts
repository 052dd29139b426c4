/**
 * Adapts a registry release store to the MCP layer: the active release through an ActiveReleaseChannel refreshed at
 * most once per interval (a corrupt refresh keeps the last verified snapshot and is reported once per reason), and any
 * published release by name for pinned checkpoints and resource reads.
 */
import { ActiveReleaseChannel } from '../registry/index.js';
import type { Release, ReleaseSource as RegistryStore } from '../registry/index.js';
import type { ReleaseProvider } from './release-scopes.js';

export interface StoreProviderOptions {
  /** Minimum time between two reads of the active pointer (default 1000 ms; 0 re-reads on every request). */
  readonly refreshIntervalMs?: number;
  /** Monotonic milliseconds (injectable for tests). */
  readonly now?: () => number;
  /** Told when a refresh is refused and the last verified snapshot stays active (once per distinct reason). */
  readonly onRefreshRefused?: (reason: string) => void;
}

/** A ReleaseProvider over a release store. Throws `no_active_release` when the store has no verified active release. */
export function storeReleaseProvider(store: RegistryStore, opts: StoreProviderOptions = {}): ReleaseProvider {
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
  };
}
