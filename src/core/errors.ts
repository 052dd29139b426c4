/**
 * The one error base class. `code` is a stable word from the error vocabulary (error-codes.ts) a caller can branch on;
 * `message` is safe to show (never participant data); `cause` keeps the underlying fault for local diagnosis only.
 */
import type { ErrorCode } from './error-codes.js';

export class RimthanError extends Error {
  override readonly name: string = 'RimthanError';
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** True for any RimthanError (or subclass). */
export function isRimthanError(error: unknown): error is RimthanError {
  return error instanceof RimthanError;
}
