/**
 * RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: how old a workflow checkpoint may be before the server refuses it as expired
 * (`workflow_checkpoint_error`, reason `checkpoint_expired`). A duration such as `30d`, `12h`, `90m` or `3600s`;
 * unset, 30 days. Read once at start; a malformed value stops the start, naming the variable.
 */
import { DEFAULT_CHECKPOINT_MAX_AGE_MS } from '../guided/index.js';
import { parseDuration } from './duration.js';
import { CommandFailed } from './errors.js';
import type { CliIo } from './io.js';

export { parseDuration };

export const CHECKPOINT_MAX_AGE_ENV = 'RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE';

const MIN_MS = 60_000;
const MAX_MS = 3650 * 86_400_000;

/** The checkpoint lifetime in milliseconds: the variable's duration (1 minute to 3650 days), else 30 days. */
export function checkpointMaxAgeMs(env: CliIo['env']): number {
  const raw = env[CHECKPOINT_MAX_AGE_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_CHECKPOINT_MAX_AGE_MS;
  const ms = parseDuration(raw);
  if (ms === undefined || !Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) {
    throw new CommandFailed(
      'invalid_config',
      `${CHECKPOINT_MAX_AGE_ENV} must be a duration from 1m to 3650d, such as 30d, 12h or 90m`,
    );
  }
  return ms;
}
