/**
 * The run store as the CLI opens it: `serve` creates a missing SQLite file (and its folder, and a `.gitignore` in a
 * `.rimthan/` folder so the database is never committed by accident); the operator commands only open a store that
 * already exists. Every failure names the store (credentials masked) and the database's own reason.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunStore, StoreObserver } from '../runs/index.js';
import { openRunStore, parseRunStoreSpec, probeRunStore } from '../runs/store/index.js';
import type { RunStoreLocation } from '../runs/store/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import { maskStoreSpec } from './mask-store-spec.js';

/** Default run store: a SQLite file in the working directory's `.rimthan/` folder. */
export const DEFAULT_RUN_STORE = 'sqlite:./.rimthan/runs.db';

/**
 * What `serve` writes into a `.rimthan/` folder that holds a SQLite store: the harness guides commit
 * `.rimthan/workflow-session.json`, and everything else there (the database, its WAL files, the stdio session) stays
 * out of Git.
 */
export const RIMTHAN_GITIGNORE = [
  '# Written by rimthan: only the participant session file belongs in Git; the run store',
  '# (runs.db, its -wal and -shm files, runs.db.stdio-session) stays on this machine.',
  '*',
  '!.gitignore',
  '!workflow-session.json',
  '',
].join('\n');

/** A store setting made absolute: a relative SQLite path is resolved against `cwd`. */
export function resolveStoreSpec(spec: string, cwd: string): { spec: string; location: RunStoreLocation } {
  let location: RunStoreLocation;
  try {
    location = parseRunStoreSpec(spec);
  } catch (error) {
    throw new CommandFailed('store_invalid', `--store ${maskStoreSpec(spec)}: ${reasonOf(error)}`);
  }
  if (location.kind === 'postgres' || location.path === ':memory:') return { spec, location };
  const path = resolve(cwd, location.path);
  return { spec: `sqlite:${path}`, location: { kind: 'sqlite', path } };
}

function cannotOpen(shown: string, error: unknown): CommandFailed {
  return new CommandFailed('store_unavailable', `cannot open the run store ${shown}: ${reasonOf(error)}`, {
    cause: error,
  });
}

/** Writes `.rimthan/.gitignore` when the store lives in a `.rimthan/` folder that has none (never overwrites one). */
function guardRimthanFolder(folder: string): void {
  if (basename(folder) !== '.rimthan') return;
  let fd: number;
  try {
    fd = openSync(join(folder, '.gitignore'), 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    writeSync(fd, RIMTHAN_GITIGNORE);
  } finally {
    closeSync(fd);
  }
}

export interface OpenStoreOptions {
  /** `serve`: create a missing SQLite file and its folder. Operator commands: refuse a store that does not exist. */
  readonly create: boolean;
  /** Metrics hooks (commit latency, claims, lease takeovers). */
  readonly observer?: StoreObserver;
}

/** Opens the store a setting names, as `serve` (create) or as an operator command (existing stores only). */
export async function openStore(spec: string, cwd: string, options: OpenStoreOptions): Promise<RunStore> {
  const resolved = resolveStoreSpec(spec, cwd);
  const shown = maskStoreSpec(resolved.spec);
  const { location } = resolved;
  if (options.create && location.kind === 'sqlite' && location.path !== ':memory:') {
    const folder = dirname(location.path);
    try {
      mkdirSync(folder, { recursive: true });
      guardRimthanFolder(folder);
    } catch (error) {
      throw cannotOpen(shown, error);
    }
  }
  if (!options.create) {
    let probe;
    try {
      probe = await probeRunStore(location);
    } catch (error) {
      throw cannotOpen(shown, error);
    }
    if (!probe.exists) {
      throw new CommandFailed(
        'store_missing',
        `no run store at ${shown}: ${probe.why} (check --store; \`rimthan serve --profile runs\` creates one)`,
      );
    }
  }
  const store = openRunStore(resolved.spec, options.observer === undefined ? {} : { observer: options.observer });
  try {
    await store.open();
  } catch (error) {
    throw cannotOpen(shown, error);
  }
  return store;
}
