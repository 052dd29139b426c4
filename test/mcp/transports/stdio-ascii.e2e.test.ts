/**
 * `rimthan serve` over stdio writes only ASCII bytes: a host that decodes each read of its pipe on its own (Codex 0.169
 * does, and turns a UTF-8 character split across two reads into U+FFFD) can never see a character split. The tool
 * listing holds non-ASCII text (`→`), which arrives intact once parsed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAIN } from '../../support/serve-process.js';

test('every byte rimthan serve writes on stdout is ASCII, and non-ASCII text survives as escapes', async () => {
  const state = mkdtempSync(join(tmpdir(), 'rimthan-ascii-'));
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: { PATH: process.env['PATH'] ?? '', XDG_STATE_HOME: state },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    const chunks: Buffer[] = [];
    const listed = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).toString('latin1').includes('"id":2')) resolve();
      });
    });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await listed;
    const bytes = Buffer.concat(chunks);
    assert.equal(
      bytes.findIndex((b) => b > 0x7e),
      -1,
      'a byte past ASCII was written',
    );
    const text = bytes.toString('ascii');
    const listing = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id?: number; result?: unknown })
      .find((m) => m.id === 2);
    assert.ok(JSON.stringify(listing?.result).includes('→'), 'the listing holds non-ASCII text');
  } finally {
    child.kill();
    rmSync(state, { recursive: true, force: true });
  }
});
