/**
 * In-process wake-up fan-out. Listeners run on a later turn (never inside `emit`), and a throwing listener cannot stop
 * the others or reach the caller of `notify`.
 */
export class NotifyHub {
  readonly #listeners = new Set<(runId: string) => void>();

  /** Registers a listener; returns its unsubscribe function. */
  add(listener: (runId: string) => void): () => void {
    const entry = (runId: string): void => listener(runId);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  get size(): number {
    return this.#listeners.size;
  }

  /** Delivers `runId` to every current listener on the next turn. */
  emit(runId: string): void {
    for (const listener of [...this.#listeners]) {
      setImmediate(() => {
        try {
          listener(runId);
        } catch {
          // A listener's fault is its own; wake-ups are hints and the other listeners still get theirs.
        }
      });
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
