/** An in-memory CliIo for running the CLI in-process. */
import type { CliIo } from '../../src/cli/io.js';

export interface CapturedIo extends CliIo {
  readonly stdout: string[];
  readonly stderr: string[];
}

export function captureIo(cwd: string, env: Record<string, string | undefined> = {}): CapturedIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    env,
    cwd,
    untilStopped: () => new Promise<void>(() => undefined),
  };
}
