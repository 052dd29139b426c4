import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

test('a stdio client that closes its end of the pipe is a clean disconnect: exit 0, no failure report', async () => {
  const state = mkdtempSync(join(tmpdir(), 'rimthan-disconnect-'));
  try {
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      env: { ...process.env, XDG_STATE_HOME: state, RIMTHAN_WORKFLOW_SIGNING_SECRET: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The client hangs up before the first answer while keeping stdin open: only the failed write can tell the
    // server that nobody is listening any more. A server that ignored it would keep running until the guard fires.
    child.stdout.destroy();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(guard);
    child.stdin.destroy();
    assert.equal(code, 0);
    assert.doesNotMatch(stderr, /unexpected failure|EPIPE|at .*\.js/);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});
