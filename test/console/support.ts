/**
 * Test support for the console: a `rimthan console` started in-process through the CLI (so its stderr, the printed
 * link and the exit path are the real ones) over a fresh SQLite run store, a headless Debian Chromium driven by
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

export interface RunningConsole {
  readonly url: string;
  readonly origin: string;
  readonly cwd: string;
  readonly stderr: string[];
  readonly env: Record<string, string>;
  /** Stops the console; its working directory is removed unless `keep` (the caller removes it). */
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

/** Starts `rimthan console ARGS` in a fresh working directory; resolves once it printed its address. */
export async function startConsoleCli(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
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
  let url: string | undefined;
  for (let i = 0; i < 600 && url === undefined; i++) {
    url = /console listening on (\S+)/.exec(stderr.join('\n'))?.[1];
    if (url === undefined) {
      const early = await Promise.race([exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
      if (early !== undefined) assert.fail(`rimthan console exited ${early}: ${stderr.join('\n')}`);
    }
  }
  assert.ok(url !== undefined, `no address printed: ${stderr.join('\n')}`);
  return {
    url,
    origin: new URL(url).origin,
    cwd: dir,
    stderr,
    env: fullEnv,
    async stop(opts = {}) {
      stop();
      const code = await exit;
      if (cwd === undefined && opts.keep !== true) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
