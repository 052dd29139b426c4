/**
 * The CLI's typed errors. Commands throw these (or any RimthanError); `exitCodeFor` in run.ts is the one place that
 * turns an outcome into an exit code: usage errors 2, failures 1, success 0.
 */
import { inspect } from 'node:util';
import { RimthanError } from '../core/index.js';
import type { ErrorCode } from '../core/index.js';

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Wrong invocation: unknown command or option, missing or malformed argument. The message names the fix. */
export class UsageError extends RimthanError {
  override readonly name = 'UsageError';
  declare readonly code: 'usage';
  /** The help topic to point at (e.g. `registry build`). */
  readonly topic: string;

  constructor(message: string, topic = '') {
    super('usage', message);
    this.topic = topic;
  }
}

/**
 * A command that ran and failed (check found problems, a run was not found, a file exists). `reported` means the
 * command already printed its own diagnostics, so the dispatcher adds nothing.
 */
export class CommandFailed extends RimthanError {
  override readonly name = 'CommandFailed';
  readonly reported: boolean;

  constructor(code: ErrorCode, message: string, options: { reported?: boolean; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reported = options.reported ?? false;
  }
}

/** Words for the system error codes a user's setting or environment commonly causes. */
const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
  ENOTDIR: 'not a folder',
  EISDIR: 'is a folder',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
};

const MAX_REASON_CHARS = 300;

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * One line saying why `error` happened, in its own words: the first line of its message (at most 300 characters), or,
 * for an AggregateError (a connection tried on several addresses), its first inner error's, or the words for its
 * system error code. For failures the user caused through a setting they gave (a store URL, a module path), where the
 * cause's own message is what they need and holds nothing they did not supply.
 */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0 && error.message.trim() === '') {
    return reasonOf(error.errors[0]);
  }
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '').trim() : '';
  if (message !== '') {
    return message.length > MAX_REASON_CHARS ? `${message.slice(0, MAX_REASON_CHARS - 1)}…` : message;
  }
  const code = codeOf(error);
  if (code !== undefined) return SYSTEM_REASONS[code] ?? code;
  return errorKind(error);
}

/**
 * `cannot <syscall> <path>: <reason> (<code>)` for a failed file-system call (a Node system error with a syscall and a
 * path), else undefined. Built from the error's structured fields, never from its message.
 */
export function systemFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { syscall, path } = error as NodeJS.ErrnoException;
  const code = codeOf(error);
  if (typeof syscall !== 'string' || typeof path !== 'string' || code === undefined) return undefined;
  const words = SYSTEM_REASONS[code];
  return `cannot ${syscall} ${path}: ${words === undefined ? code : `${words} (${code})`}`;
}

/** The kind of an unexpected error: its class name and Node error code, never its message. */
export function errorKind(error: unknown): string {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return error instanceof Error ? `${error.name}${typeof code === 'string' ? ` (${code})` : ''}` : 'unknown error';
}

/** For `--debug` only: the stack of `error` and of each cause (at most five levels). */
export function debugDetail(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined; depth++) {
    const text = current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : inspect(current);
    lines.push(depth === 0 ? text : `caused by: ${text}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}
