/**
 * Retention settings on the command line: `--retain-for 30d` / `--retain-last N` of `rimthan serve --profile runs`
 * (the default rule of the worker's retention sweep) and the durations `rimthan runs prune --older-than` takes.
 */
import type { RetentionOptions } from '../runs/supervisor/types.js';
import { intOption, stringOption, type Parsed } from './args.js';
import { parseDuration } from './duration.js';
import { UsageError } from './errors.js';

/** Longest retention age accepted (100 years). */
const MAX_AGE_MS = 36_500 * 86_400_000;

/** Largest keep-last count. */
export const MAX_KEEP_LAST = 1_000_000_000;

/** `--NAME <integer><s|m|h|d>` in milliseconds (1 s to 36500 d), or undefined when absent. */
export function durationOption(parsed: Parsed, name: string, topic: string): number | undefined {
  const text = stringOption(parsed, name);
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || !Number.isFinite(ms) || ms < 1000 || ms > MAX_AGE_MS) {
    throw new UsageError(`--${name} must be a duration from 1s to 36500d, such as 30d, 12h or 90m`, topic);
  }
  return ms;
}

/** `--retain-for` and `--retain-last` as the worker's retention (the default rule of every flow), if either is given. */
export function serveRetention(parsed: Parsed, topic: string): RetentionOptions | undefined {
  const maxAgeMs = durationOption(parsed, 'retain-for', topic);
  const keepLast = intOption(parsed, 'retain-last', 0, MAX_KEEP_LAST, topic);
  if (maxAgeMs === undefined && keepLast === undefined) return undefined;
  return {
    default: {
      ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
      ...(keepLast === undefined ? {} : { keepLast }),
    },
  };
}
