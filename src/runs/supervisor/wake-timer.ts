/**
 * One timer per worker for every parked run it knows of: armed for the earliest instant it was told about (a local
 * park, or the store's earliest wait), it fires once and asks for a claim round. Nothing per sleeping run is held in
 * memory, so ten thousand sleeping runs cost one timer.
 */

/** Longest single delay (setTimeout's limit is 2^31 - 1 ms); a later instant is looked up again when it fires. */
const MAX_DELAY_MS = 3_600_000;

export class WakeTimer {
  readonly #onFire: () => void;
  #timer: NodeJS.Timeout | undefined;
  #at = Number.POSITIVE_INFINITY;
  #fired = false;

  constructor(onFire: () => void) {
    this.#onFire = onFire;
  }

  /** Makes sure the timer fires no later than `at` (ms since the epoch). */
  arm(at: number): void {
    if (this.#timer !== undefined && this.#at <= at) return;
    this.clear();
    this.#at = at;
    const delay = Math.min(Math.max(0, at - Date.now()), MAX_DELAY_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#at = Number.POSITIVE_INFINITY;
      this.#fired = true;
      this.#onFire();
    }, delay);
    this.#timer.unref();
  }

  /** True once after the timer fired (the worker then looks up the next instant). */
  due(_now: number): boolean {
    const fired = this.#fired;
    this.#fired = false;
    return fired;
  }

  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#at = Number.POSITIVE_INFINITY;
  }
}
