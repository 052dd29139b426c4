/** Store observer hooks (StoreObserver) called on the write path: a hook that throws is ignored. */

/** Calls an observer hook; its fault is its own. */
export function observe(hook: () => void): void {
  try {
    hook();
  } catch {
    // ignored: metrics must never break the store
  }
}
