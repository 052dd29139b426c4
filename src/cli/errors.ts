/**
 * The CLI's typed errors. Commands throw these (or any RimthanError); `exitCodeFor` in run.ts is the one place that
 * turns an outcome into an exit code: usage errors 2, failures 1, success 0.
 */
import { inspect } from 'node:util';
import { RimthanError } from '../core/index.js';

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Wrong invocation: unknown command or option, missing or malformed argument. The message names the fix. */
export class UsageError extends RimthanError {
  override readonly name = 'UsageError';
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

  constructor(code: string, message: string, options: { reported?: boolean; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reported = options.reported ?? false;
  }
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
