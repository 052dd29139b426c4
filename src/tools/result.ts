/**
 * Outcomes of a run tool: a bounded JSON value, or an error with a stable code and a message safe to show to a model
 * (never input, resume payloads, flow state or a raw validator message).
 */
import type { ErrorCode, JsonObject } from '../core/index.js';

/** Stable error codes of the run tools (the reference returns bare strings; ours are branchable). */
export const RunToolErrorCode = {
  InvalidArguments: 'invalid_arguments',
  NotFound: 'not_found',
  Conflict: 'conflict',
  UnknownDefinition: 'unknown_definition',
  InvalidInput: 'invalid_input',
  ResumeNotSupported: 'resume_not_supported',
  Unavailable: 'unavailable',
  /** The person asked through a form declined to answer (elicited resume only). */
  Declined: 'declined',
  Internal: 'internal',
} as const satisfies Readonly<Record<string, ErrorCode>>;
export type RunToolErrorCode = (typeof RunToolErrorCode)[keyof typeof RunToolErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(RunToolErrorCode));

/** True when `code` is one of the run tool error codes. */
export function isRunToolErrorCode(code: string): code is RunToolErrorCode {
  return CODES.has(code);
}

export interface RunToolError {
  readonly code: RunToolErrorCode;
  readonly message: string;
}

export type RunToolResult =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly error: RunToolError };

/** A successful outcome. */
export function succeed(value: JsonObject): RunToolResult {
  return { ok: true, value };
}

/** A refused or failed outcome. */
export function refuse(code: RunToolErrorCode, message: string): RunToolResult {
  return { ok: false, error: { code, message } };
}

/** The one answer for a run that is missing or belongs to another session: both must be indistinguishable. */
export function runNotFound(): RunToolResult {
  return refuse(RunToolErrorCode.NotFound, 'no run with this run_id exists in this session');
}
