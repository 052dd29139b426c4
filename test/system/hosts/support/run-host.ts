/**
 * Running the pinned host CLIs (host-bins.ts) from tests: asynchronously, so servers in the test process (a fake
 * authorization server) keep answering while a host talks to them; with only the environment given (a scratch HOME,
 * never the caller's credentials); and the rules for what a test may touch outside its scratch folders.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import type { HostBinary } from './host-bins.js';

/** How a host CLI's process ended and what it printed. */
export interface HostExit {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `binary ARGS` with exactly `env` (plus PATH) in `cwd`, with nothing on its stdin (a host that reads a piped stdin
 * gets end of input), killed after the timeout; never throws for a non-zero exit.
 */
export function runHost(
  binary: HostBinary,
  args: readonly string[],
  opts: { readonly cwd: string; readonly env: Readonly<Record<string, string>>; readonly timeoutMs?: number },
): Promise<HostExit> {
  return new Promise((resolve) => {
    const child = execFile(
      binary.path,
      [...args],
      {
        cwd: opts.cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...opts.env },
        timeout: opts.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ status: error === null ? 0 : typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/**
 * Why a host's tests cannot run (its executable is not installed), or undefined. Under `CI=true` a missing host is a
 * failure: CI must prove the rollout files against the real hosts.
 */
export function hostSkipReason(name: string, binary: HostBinary | undefined): string | undefined {
  if (binary !== undefined) return undefined;
  const reason = `${name} is not installed (npm ci installs the pinned devDependency)`;
  if (process.env['CI'] === 'true') test(`${name} is installed under CI`, () => assert.fail(reason));
  return reason;
}

/** True when this process may write system configuration (a host's managed-settings folder under /etc). */
export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Writes `content` to a system path (root only) and returns the function that puts everything back: the previous
 * file's bytes when there was one, else the file and every folder this call created (each must be empty again) are
 * removed.
 */
export function placeSystemFile(path: string, content: string): () => void {
  const previous = existsSync(path) ? readFileSync(path) : undefined;
  const created: string[] = [];
  for (let dir = dirname(path); !existsSync(dir); dir = dirname(dir)) created.unshift(dir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return () => {
    if (previous !== undefined) writeFileSync(path, previous);
    else rmSync(path, { force: true });
    for (const dir of created.reverse()) rmdirSync(dir);
  };
}
