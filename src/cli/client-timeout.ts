/**
 * `--timeout SECONDS`: how long the admin and participant commands wait for the server on each request (connecting,
 * the answer and its whole body) before they give up with a clear failure. A stalled server never makes them hang.
 */
import type { OptionRow } from './args.js';
import { stringOption } from './args.js';
import type { Parsed } from './args.js';
import { UsageError } from './errors.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;
const MAX_TIMEOUT_SECONDS = 3600;

export const TIMEOUT_OPTION: OptionRow = {
  name: 'timeout',
  type: 'string',
  value: 'SECONDS',
  help: [`how long to wait for each answer of the server (default ${DEFAULT_TIMEOUT_SECONDS}; at most 3600)`],
  default: String(DEFAULT_TIMEOUT_SECONDS),
};

/** The `--timeout` of the options in milliseconds (default 30 s); a value that is not seconds is a usage error. */
export function timeoutMs(parsed: Parsed, topic: string): number {
  const raw = stringOption(parsed, 'timeout');
  if (raw === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = /^\d{1,4}(\.\d{1,3})?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(`--timeout takes seconds, more than 0 and at most ${MAX_TIMEOUT_SECONDS} (e.g. 30)`, topic);
  }
  return Math.round(seconds * 1000);
}

/** Seconds as a message shows them (`30`, `0.5`). */
export function secondsText(ms: number): string {
  return String(ms / 1000);
}
