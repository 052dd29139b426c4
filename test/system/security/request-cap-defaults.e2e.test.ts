/**
 * The documented defaults of RIMTHAN_MCP_MAX_REQUEST_BYTES when it is unset, per profile, on a real `rimthan serve
 * --transport http`: 4 MiB for the workflow-engine profile (artifacts travel in prepare_step_validation) and 1 MiB for
 * the runs profile. A body one byte over the profile's cap is answered 413 naming the cap; on the workflow-engine
 * profile a body over the runs cap is read (a JSON-RPC parse error, not 413).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { spawnServe, type ServeProcess } from '../../support/serve-process.js';

const TOKEN = 'cap-defaults-token-5d1e93a2b7';
const MIB = 1024 * 1024;

/** POSTs `length` bytes of `body` (or declares `length` and sends nothing) and returns the status and body. */
function post(url: string, length: number, body: Buffer | undefined): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${length}\r\nConnection: close\r\n\r\n`,
    );
    if (body !== undefined) socket.write(body);
  });
}

function capMessage(body: string): string {
  return (JSON.parse(body) as { error: { message: string } }).error.message;
}

describe('RIMTHAN_MCP_MAX_REQUEST_BYTES unset: the documented default per profile', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-cap-defaults-'));
  const env = { HOME: work, XDG_STATE_HOME: work, RIMTHAN_MCP_BEARER_TOKEN: TOKEN };
  const servers: ServeProcess[] = [];
  after(async () => {
    for (const server of servers) await server.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('workflow-engine: 4 MiB; a body over 1 MiB is still read', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0'], env);
    servers.push(server);
    const over = await post(server.url, 4 * MIB + 1, undefined);
    assert.equal(over.status, 413);
    assert.equal(capMessage(over.body), `request body exceeds ${4 * MIB} bytes`);
    const read = await post(server.url, MIB + 1, Buffer.alloc(MIB + 1, 0x61));
    assert.notEqual(read.status, 413, 'a body under 4 MiB is not refused for its size');
    assert.equal(read.status, 400);
    assert.equal((JSON.parse(read.body) as { error: { code: number } }).error.code, -32700);
  });

  test('runs: 1 MiB', async () => {
    const store = `sqlite:${join(work, 'runs.db')}`;
    const server = await spawnServe(['--profile', 'runs', '--transport', 'http', '--port', '0', '--store', store], env);
    servers.push(server);
    const over = await post(server.url, MIB + 1, undefined);
    assert.equal(over.status, 413);
    assert.equal(capMessage(over.body), `request body exceeds ${MIB} bytes`);
  });
});
