/**
 * In-process wake-up fan-out (a run store's run ids, a release store's channel changes). Listeners run on a later turn (never inside `emit`), and a throwing listener cannot stop
 * the others or reach the caller of `notify`.
 */
export class NotifyHub {
  readonly #listeners = new Set<(payload: string) => void>();

  /** Registers a listener; returns its unsubscribe function. */
  add(listener: (payload: string) => void): () => void {
    const entry = (payload: string): void => listener(payload);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  get size(): number {
    return this.#listeners.size;
  }

  /** Delivers `payload` to every current listener on the next turn. */
  emit(payload: string): void {
    for (const listener of [...this.#listeners]) {
      setImmediate(() => {
        try {
          listener(payload);
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
