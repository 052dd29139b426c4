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

/** One row of a message table in docs/cli.md: exit code and message template (`<…>` = any text). */
export interface DocumentedRow {
  readonly exit: number;
  readonly template: string;
  readonly pattern: RegExp;
}

/** The rows of the docs/cli.md message table under `heading` (a `## ` line), up to the next `## ` heading. */
export function documentedRows(doc: string, heading: string): DocumentedRow[] {
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const section = doc.split(new RegExp(`^## ${escaped}$`, 'm'))[1]?.split(/^## /m)[0] ?? '';
  const rows: DocumentedRow[] = [];
  for (const line of section.split('\n')) {
    const m = /^\| ([12]) +\| (`+) ?(.+?) ?\2 +\|/.exec(line);
    if (m === null) continue;
    const template = m[3] ?? '';
    const source = template
      .split(/<[^<>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?');
    rows.push({ exit: Number(m[1]), template, pattern: new RegExp(`^${source}$`) });
  }
  return rows;
}
