/** Abort helpers: why an execution stops, an abortable sleep, and settling a promise unless a signal aborts first. */

/** Why an execution's hard signal was aborted. */
export const HaltReason = {
  /** The run is being cancelled; the executor writes the terminal checkpoint. */
  Cancel: 'cancel',
  /** The supervisor shuts down; the run stays as checkpointed and is adopted later. */
  Stop: 'stop',
  /** Another worker may own the run now; write nothing more. */
  LeaseLost: 'lease_lost',
} as const;
export type HaltReason = (typeof HaltReason)[keyof typeof HaltReason];

/** The abort reason carried by an execution's signal. */
export class Halt extends Error {
  override readonly name = 'Halt';
  readonly reason: HaltReason;
  /** For a local cancellation: the (normalized) cancel reason the executor records in the terminal checkpoint. */
  readonly cancelReason: string | undefined;

  constructor(reason: HaltReason, cancelReason?: string) {
    super(`execution halted: ${reason}`);
    this.reason = reason;
    this.cancelReason = cancelReason;
  }
}

/** The halt reason of an aborted signal (Stop when the signal was aborted with something else). */
export function haltReasonOf(signal: AbortSignal): HaltReason {
  const r: unknown = signal.reason;
  return r instanceof Halt ? r.reason : HaltReason.Stop;
}

/** The cancel reason a local cancellation put into the halt, if any. */
export function cancelReasonOf(signal: AbortSignal): string | undefined {
  const r: unknown = signal.reason;
  return r instanceof Halt ? r.cancelReason : undefined;
}

/** Waits `ms`; resolves true when the time passed, false as soon as any of the signals aborts. */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<boolean> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) {
      resolve(false);
      return;
    }
    const done = (value: boolean): void => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
  });
}

export type Settled<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'aborted' };

/**
 * How `promise` settled, or `aborted` as soon as the signal aborts (whichever comes first). Never rejects; the
 * abandoned promise keeps a handler, so its late rejection is never unhandled.
 */
export function settleUnlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<Settled<T>> {
  return new Promise<Settled<T>>((resolve) => {
    const onAbort = (): void => resolve({ kind: 'aborted' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'value', value });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'error', error });
      },
    );
  });
}
