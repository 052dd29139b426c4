/**
 * Idle work on a stdio connection (`serveStdio`'s `idleWork`: how `rimthan serve` compiles the validators it deferred
 * at start): it never starts before the first answer is written, its `idle()` waits for a quiet connection, and it
 * turns false once the connection has closed, so the work stops with the server.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '../../../src/mcp/transports/stdio.js';

function bareServer(): Server {
  const server = new Server({ name: 'idle-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  return server;
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('idle work starts after the first answer and stops once the connection closes', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  stdout.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ),
  );
  const idles: (() => Promise<boolean>)[] = [];
  const served = serveStdio(bareServer, undefined, { stdin, stdout, idleWork: (idle) => idles.push(idle) });
  await turns(5);
  assert.equal(idles.length, 0, 'idle work started before anything was answered');

  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  stdin.write(`${JSON.stringify(initialize)}\n`);
  while (idles.length === 0) await turns(1);
  assert.equal(lines.length, 1, 'the first answer is out when the idle work starts');
  assert.match(lines[0] ?? '', /"id":1/);
  const [idle] = idles;
  assert.ok(idle !== undefined);
  // idle() waits on unref'd timers (it never keeps a server alive); here nothing else holds the event loop open.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    assert.equal(await idle(), true, 'a quiet open connection is idle');
  } finally {
    clearInterval(keepAlive);
  }

  stdin.end();
  await served;
  assert.equal(await idle(), false, 'a closed connection ends the idle work');
  await turns(5);
  assert.equal(idles.length, 1, 'idle work starts once per connection');
});
