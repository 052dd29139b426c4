/**
 * Promise adapters for the SQLite store's synchronous work (better-sqlite3 answers synchronously): a fault thrown while
 * preparing or running a statement reaches the caller as a rejection, never as a synchronous throw from an async API.
 */

/** Runs synchronous work and reports its result or fault as a promise (a sync throw becomes a rejection). */
export function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Like settle, for work that already answers with a promise. */
export function settleAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
