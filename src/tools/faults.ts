/**
 * Turns a failure thrown by a dependency (store, supervisor, catalog, host hook) into a tool error. Messages name the
 * step that failed, never the cause's text unless it is a RimthanError (whose messages are safe by contract).
 */
import { isRimthanError } from '../core/index.js';
import { StoreConflictError } from '../runs/store/index.js';
import { isRunToolErrorCode, refuse, RunToolErrorCode } from './result.js';
import type { RunToolResult } from './result.js';

/** Receives every unexpected fault (for the host's own diagnostics); the caller only sees the mapped error. */
export type FaultReporter = (tool: string, error: unknown) => void;

/**
 * Maps a dependency failure: a lost compare-and-swap → `conflict`; a RimthanError whose code is a tool error code →
 * that code and its message; anything else → `unavailable`, naming only the step (`what`).
 */
export function dependencyFault(error: unknown, what: string): RunToolResult {
  if (error instanceof StoreConflictError) {
    return refuse(RunToolErrorCode.Conflict, `${what} conflicted with a concurrent change; read the run and retry`);
  }
  if (isRimthanError(error) && isRunToolErrorCode(error.code) && error.code !== RunToolErrorCode.Internal) {
    return refuse(error.code, error.message);
  }
  return refuse(RunToolErrorCode.Unavailable, `${what} failed; retry later`);
}
