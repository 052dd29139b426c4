/**
 * Test support for the console: a `rimthan console` started in-process through the CLI (so its stderr, the printed
 * link and the exit path are the real ones) over a fresh SQLite run store, with a `rimthan serve --profile runs` worker
 * on the same store (the console only observes: the worker executes the runs it starts), a headless Debian Chromium driven by
 * playwright-core, and screenshots saved to the test output folder (test-results/console/, and docs/console/ when
 * RIMTHAN_CONSOLE_SCREENSHOTS=docs asks for the documentation's pictures).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { runCli } from '../../src/cli/run.js';
import type { CliIo } from '../../src/cli/io.js';
import { packageRoot } from '../../src/package/index.js';
import { DEFAULT_RUN_STORE, openStore } from '../../src/cli/run-store.js';
import { prepareApprovalRepository } from './fixtures.js';

export const CHROMIUM = process.env['RIMTHAN_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
/** A signing secret shared by the test's guided engine and the console (both verify the same checkpoints). */
export const SIGNING_SECRET = 'console-test-signing-secret-0123456789abcdef';
export const OUTPUT = join(packageRoot(), 'test-results', 'console');
const DOCS = join(packageRoot(), 'docs', 'console');

/** Why the browser tests cannot run (undefined when Chromium is there); under CI a missing browser fails. */
export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set RIMTHAN_TEST_CHROMIUM)`;
  if (process.env['CI'] === 'true') test('Chromium is installed under CI', () => assert.fail(reason));
  return reason;
}

/** Debian's Chromium, headless, with nothing that reaches for the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page screenshot as `<name>.png` in the output folder (and docs/console/ when asked). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env['RIMTHAN_CONSOLE_SCREENSHOTS'] === 'docs') {
    mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage: true });
  }
  return file;
}

/** A `rimthan serve --profile runs` worker started in-process through the CLI. */
export interface RunningWorker {
  readonly stderr: string[];
  stop(): Promise<number>;
}

/**
 * Waits until `stderr` holds a line matching `pattern` and returns its first group; fails when the command exits
 * first (with its exit code and stderr).
 */
async function printed(stderr: string[], pattern: RegExp, exit: Promise<number>, what: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const found = pattern.exec(stderr.join('\n'))?.[1];
    if (found !== undefined) return found;
    const early = await Promise.race([exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
    if (early !== undefined) assert.fail(`rimthan ${what} exited ${early}: ${stderr.join('\n')}`);
  }
  return assert.fail(`rimthan ${what} printed no address: ${stderr.join('\n')}`);
}

/**
 * Starts a worker of the console's default store in `cwd` (`serve --profile runs` over HTTP on loopback, with short
 * leases so it polls the SQLite file often: another store object's wake-ups do not reach it); resolves once it
 * listens, which is after its supervisor started claiming.
 */
export async function startRunsWorker(
  cwd: string,
  env: Record<string, string>,
  extraArgs: readonly string[] = [],
): Promise<RunningWorker> {
  const stderr: string[] = [];
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const io: CliIo = {
    out: () => undefined,
    err: (text) => stderr.push(text),
    env,
    cwd,
    untilStopped: () => stopped,
  };
  const args = ['serve', '--profile', 'runs', '--transport', 'http', '--port', '0', '--lease-ms', '500', ...extraArgs];
  const exit = runCli(args, io);
  await printed(stderr, /runs profile listening on (\S+)/, exit, 'serve --profile runs');
  return {
    stderr,
    async stop() {
      stop();
      return exit;
    },
  };
}

export interface RunningConsole {
  readonly url: string;
  readonly origin: string;
  readonly cwd: string;
  readonly stderr: string[];
  readonly env: Record<string, string>;
  /** The worker started beside the console (none with `worker: false`). */
  readonly worker: RunningWorker | undefined;
  /** Stops the console (and its worker); its working directory is removed unless `keep` (the caller removes it). */
  stop(opts?: { keep?: boolean }): Promise<number>;
}

/** True when some run input of `session` in the console's default store holds `text` (it reached the store). */
export async function storedInputHolds(cwd: string, session: string, text: string): Promise<boolean> {
  const store = await openStore(DEFAULT_RUN_STORE, cwd, { create: true });
  try {
    for (const run of await store.listRuns(session, { limit: 100 })) {
      if ((await store.getInput(run.input_sha256))?.includes(text) === true) return true;
    }
    return false;
  } finally {
    await store.close();
  }
}

/**
 * Starts `rimthan console ARGS` in a fresh working directory, and a worker on its default store unless `worker` is
 * false; resolves once the console printed its address.
 */
export async function startConsoleCli(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
  opts: { readonly worker?: boolean; readonly workerArgs?: readonly string[] } = {},
): Promise<RunningConsole> {
  const dir = cwd ?? mkdtempSync(join(tmpdir(), 'rimthan-console-'));
  if (cwd === undefined) prepareApprovalRepository(dir);
  const stderr: string[] = [];
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const fullEnv = { RIMTHAN_WORKFLOW_SIGNING_SECRET: SIGNING_SECRET, ...env };
  const io: CliIo = {
    out: () => undefined,
    err: (text) => stderr.push(text),
    env: fullEnv,
    cwd: dir,
    untilStopped: () => stopped,
  };
  const exit = runCli(['console', '--port', '0', ...args], io);
  const url = await printed(stderr, /console listening on (\S+)/, exit, 'console');
  const worker = opts.worker === false ? undefined : await startRunsWorker(dir, fullEnv, opts.workerArgs);
  return {
    url,
    origin: new URL(url).origin,
    cwd: dir,
    stderr,
    env: fullEnv,
    worker,
    async stop(stopOpts = {}) {
      stop();
      const code = await exit;
      const workerCode = await worker?.stop();
      assert.equal(workerCode ?? 0, 0, `the worker exited ${workerCode ?? 0}: ${worker?.stderr.join('\n') ?? ''}`);
      if (cwd === undefined && stopOpts.keep !== true) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
