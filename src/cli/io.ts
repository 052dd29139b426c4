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

/** The real process. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    env: process.env,
    cwd: process.cwd(),
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
