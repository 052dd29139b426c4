import { createInterface } from 'node:readline/promises';
import { CommandFailed } from './errors.js';
import { terminalText } from './terminal.js';

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
  /** All of stdin (at most `maxBytes`; more is a failure). Absent: stdin is empty. */
  readStdin?(maxBytes: number): Promise<Buffer>;
  /** Asks the person at the keyboard (prompt on stderr) and resolves with the line typed; undefined at end of input. */
  ask?(question: string): Promise<string | undefined>;
}

/** Reads `stream` to its end, failing once more than `maxBytes` arrived. */
export async function readAll(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.length;
    if (total > maxBytes) throw new CommandFailed('input_too_large', `stdin holds more than ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

/**
 * `io` whose output is safe for a terminal: every write has its control characters escaped (newlines and tabs kept)
 * and is bounded (terminal.ts). The commands that print what a server sent (admin, participant) write through it.
 */
export function terminalIo(io: CliIo): CliIo {
  return Object.create(io, {
    out: { value: (text: string) => io.out(terminalText(text)), enumerable: true },
    err: { value: (text: string) => io.err(terminalText(text)), enumerable: true },
  }) as CliIo;
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
    readStdin: (maxBytes) => {
      if (process.stdin.isTTY) process.stderr.write('rimthan: reading from stdin; end with Ctrl-D\n');
      return readAll(process.stdin, maxBytes);
    },
    ask: async (question) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
      try {
        const closed = new Promise<undefined>((resolve) => rl.once('close', () => resolve(undefined)));
        return await Promise.race([rl.question(question), closed]);
      } finally {
        rl.close();
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
