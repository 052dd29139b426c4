/**
 * Many calls in flight over stdio: 200 concurrent requests whose answers fill the stdout pipe are all answered, and
 * the server waits for the pipe to drain with one listener, not one per queued answer (Node warns about a leak,
 * `MaxListenersExceededWarning`, beyond ten).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { StrictStdioTransport } from '../../../src/mcp/transports/stdio.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const CALLS = 200;
const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'stdio-concurrency', version: '1' },
};

describe('stdio under concurrent calls', () => {
  const state = mkdtempSync(join(tmpdir(), 'rimthan-stdio-conc-'));
  after(() => rmSync(state, { recursive: true, force: true }));

  test(`${CALLS} concurrent tools/list calls are all answered, with no listener-leak warning on stderr`, async () => {
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', HOME: state, XDG_STATE_HOME: state },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answered = new Map<number, number>();
    let buffer = '';
    const all = new Promise<void>((resolve, reject) => {
      child.on('exit', () => reject(new Error(`server exited early: ${stderr}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const message = JSON.parse(buffer.slice(0, nl)) as { id: number; result?: { tools?: unknown[] } };
          buffer = buffer.slice(nl + 1);
          answered.set(message.id, message.result?.tools?.length ?? -1);
          if (answered.size === CALLS + 1) resolve();
        }
      });
    });
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: INITIALIZE },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...Array.from({ length: CALLS }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
    ];
    child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    try {
      await all;
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
    }
    for (let id = 1; id <= CALLS; id++) assert.equal(answered.get(id), 4, `answer ${id}`);
    assert.doesNotMatch(stderr, /MaxListenersExceededWarning|drain listeners/);
  });

  test('answers queued behind a full pipe wait on one drain listener and are written in order', async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString('utf8'));
        release = callback;
      },
    });
    const transport = new StrictStdioTransport(new PassThrough(), slow, 1024);
    await transport.start();
    const sent = Array.from({ length: 50 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', id: i, result: { padding: 'x'.repeat(100) } }),
    );
    assert.ok(slow.listenerCount('drain') <= 1, `${slow.listenerCount('drain')} drain listeners`);
    while (written.length < 50) {
      const next = release;
      release = undefined;
      next?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release?.();
    await Promise.all(sent);
    assert.deepEqual(
      written.map((line) => (JSON.parse(line) as { id: number }).id),
      Array.from({ length: 50 }, (_, i) => i),
    );
    assert.equal(slow.listenerCount('drain'), 0);
    await transport.close();
  });
});
