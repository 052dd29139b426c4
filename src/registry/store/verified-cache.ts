/**
 * The releases a replica has verified, kept in memory (bounded, least recently used first) so that a call pinned to
 * one of them keeps working while the release store cannot be reached. A release is immutable and was verified before
 * it was kept, so the kept copy is what the store would serve; while the store answers, its answer wins (a release
 * gone from the store, or whose bytes no longer verify, is dropped here too).
 */
import { LruCache } from '../../core/index.js';
import type { Release } from '../model/release.js';
import type { ReleaseLoad } from './types.js';

/** How many verified releases a replica keeps for a store outage (a release file is at most 32 MiB). */
export const VERIFIED_CACHE_CAPACITY = 16;

/** What one load answered: a release (or none), and whether the store was asked and answered. */
export interface CachedLoad {
  readonly release: Release | undefined;
  /** True when the store could not be reached (or was not asked, being known down) and the kept copy answered. */
  readonly fromCache: boolean;
}

export class VerifiedReleaseCache {
  readonly #entries: LruCache<string, Release>;

  constructor(capacity: number = VERIFIED_CACHE_CAPACITY) {
    this.#entries = new LruCache(capacity);
  }

  /** Keeps a release that verified. */
  keep(release: Release): void {
    this.#entries.set(release.release, release);
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * `name` from the store through `load` (kept when it verifies, dropped when the store says it is gone or does not
   * verify); when the store throws (unreachable), or is known to be down (`storeDown`), the kept copy answers, and
   * without one the store's error is thrown.
   */
  async load(name: string, load: (name: string) => Promise<ReleaseLoad>, storeDown: boolean): Promise<CachedLoad> {
    const kept = this.#entries.get(name);
    // Known down: do not make the call wait for a connection attempt that will fail.
    if (kept !== undefined && storeDown) return { release: kept, fromCache: true };
    let loaded: ReleaseLoad;
    try {
      loaded = await load(name);
    } catch (error) {
      if (kept !== undefined) return { release: kept, fromCache: true };
      throw error;
    }
    if (!loaded.ok) {
      this.#entries.delete(name);
      return { release: undefined, fromCache: false };
    }
    this.keep(loaded.release);
    return { release: loaded.release, fromCache: false };
  }
}
