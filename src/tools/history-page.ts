/**
 * History paging: cut a fetched window (up to limit + 1 entries, ordered by revision then ordinal) into one page.
 *
 * Entries of one checkpoint revision stay on one page. Only when a single revision fills the whole page does the page
 * end inside it; then the cursor is that revision plus the last event returned, so a reader that follows the cursors
 * reads every entry exactly once.
 */
import type { ActivityEntry } from '../runs/store/index.js';

export interface HistoryCursor {
  readonly revision: number;
  readonly eventId?: string;
}

export interface HistoryPage {
  readonly entries: readonly ActivityEntry[];
  /** Absent at the end of the history. */
  readonly next?: HistoryCursor;
}

/** Cuts `fetched` (the store's answer to a query of `limit + 1`) into a page of at most `limit` entries. */
export function cutHistoryPage(fetched: readonly ActivityEntry[], limit: number): HistoryPage {
  if (fetched.length <= limit) return { entries: fetched };
  const page = fetched.slice(0, limit);
  const last = page[page.length - 1] as ActivityEntry;
  const following = fetched[limit] as ActivityEntry;
  if (following.revision !== last.revision) return { entries: page, next: { revision: last.revision } };

  // The last revision continues past the page: keep it whole for the next page, unless it is all this page holds.
  const firstOfLast = page.findIndex((e) => e.revision === last.revision);
  if (firstOfLast === 0) return { entries: page, next: { revision: last.revision, eventId: last.event_id } };
  const kept = page.slice(0, firstOfLast);
  return { entries: kept, next: { revision: (kept[kept.length - 1] as ActivityEntry).revision } };
}
