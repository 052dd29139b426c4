/**
 * Runs this worker has set aside because its catalog lacks their pinned flow version (a rolling deploy): each is
 * skipped in this worker's claims for a back-off period that doubles per deferral (1 s up to 5 min), so a worker that
 * has the definition can take it, and this worker looks again later (its catalog may have gained the version).
 */
import { LruCache } from '../../core/lru.js';
import { STORE_LIMITS } from '../store/validate.js';

export const DEFER_BACKOFF = { firstMs: 1000, maxMs: 5 * 60_000 } as const;

interface Entry {
  until: number;
  delayMs: number;
}

export class DeferredRuns {
  readonly #entries = new LruCache<string, Entry>(STORE_LIMITS.maxPageLimit);

  /** Sets `runId` aside from `now`; returns the back-off it got. At most 1000 runs are kept (the oldest goes first). */
  add(runId: string, now: number): number {
    const previous = this.#entries.peek(runId);
    const delayMs =
      previous === undefined ? DEFER_BACKOFF.firstMs : Math.min(previous.delayMs * 2, DEFER_BACKOFF.maxMs);
    this.#entries.set(runId, { until: now + delayMs, delayMs });
    return delayMs;
  }

  /** Ids still in their back-off period at `now` (to exclude from a claim); forgets entries long past theirs. */
  active(now: number): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.#entries.entries()) {
      if (entry.until > now) ids.push(id);
      else if (now - entry.until > DEFER_BACKOFF.maxMs) this.#entries.delete(id);
    }
    return ids;
  }

  /** The run was executed here after all (or ended): drop its back-off. */
  forget(runId: string): void {
    this.#entries.delete(runId);
  }
}
