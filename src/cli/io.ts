import { CommandFailed } from './errors.js';

/**
 * What a command may touch of its process: two output streams, the environment, the working directory and a way to
 * wait for a stop signal. Tests pass their own; `main.ts` passes the real process.
 */
export interface CliIo {
  /** Program output (JSON, Mermaid, problem lines). Never used while serving over stdio. */
  out(text: string): void;
  /** Notices and diagnostics. */
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** `rimthan --debug ...`: unexpected errors are reported with their stack and causes (operators only). */
  readonly debug?: boolean;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  untilStopped(): Promise<void>;
}

/** Writes one line to stderr (what the last-resort error report needs, even before a CliIo exists). */
export function writeStderr(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** The real process. `cwd` is read when a command asks for it: a deleted working directory is that command's failure. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: writeStderr,
    env: process.env,
    get cwd(): string {
      try {
        return process.cwd();
      } catch (error) {
        throw new CommandFailed('cwd_unavailable', 'the working directory does not exist any more', { cause: error });
      }
    },
    untilStopped: () =>
      new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }),
  };
}
