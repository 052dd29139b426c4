/**
 * Writes a rollout's files under `--out`: a folder that does not exist yet is created, an empty one is used, and a
 * folder with anything in it is refused unless `--force` (then the files rollout writes are overwritten and nothing
 * else is touched). Paths are relative, with `/` separators.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CommandFailed } from '../errors.js';
import type { CliIo } from '../io.js';

/** One file a rollout writes: where (relative to `--out`), what, and a few words for the summary. */
export interface RolloutFile {
  readonly path: string;
  readonly content: string;
  readonly note: string;
}

function entriesOf(folder: string, shown: string): string[] | undefined {
  let stats;
  try {
    stats = statSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stats.isDirectory()) throw new CommandFailed('not_found', `${shown} is not a folder (--out is a folder)`);
  return readdirSync(folder);
}

/** Writes `files` under `out` (resolved against the working directory) and returns the folder's absolute path. */
export function writeRolloutFiles(files: readonly RolloutFile[], out: string, force: boolean, io: CliIo): string {
  const folder = resolve(io.cwd, out);
  const entries = entriesOf(folder, out);
  if (entries !== undefined && entries.length > 0 && !force) {
    throw new CommandFailed(
      'out_not_empty',
      `${out} is not empty: choose a new or empty folder, or pass --force to overwrite the files rollout writes there`,
    );
  }
  for (const file of files) {
    const path = join(folder, ...file.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content, { mode: 0o644 });
  }
  return folder;
}

/** The summary the command prints: one line per file with its note, aligned. */
export function summaryLines(files: readonly RolloutFile[]): string[] {
  const width = Math.max(...files.map((f) => f.path.length));
  return files.map((f) => `  ${f.path.padEnd(width)}  ${f.note}`);
}
