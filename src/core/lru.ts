/** A bounded map that forgets the least recently used entry first. */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  /** The entry for `key`, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The entry for `key` without counting it as a use. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Stores `value` as the most recently used entry, dropping the least recently used beyond the capacity. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** The entries, least recently used first (reading them does not count as a use). */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }

  get size(): number {
    return this.#entries.size;
  }
}
