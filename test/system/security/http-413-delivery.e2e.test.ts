/**
 * An over-cap request receives its 413 with the JSON error, from a real `rimthan serve --transport http` process: a
 * 200 MB streamed upload and a declared over-cap Content-Length (with and without `Expect: 100-continue`, which
 * never gets a `100 Continue`), while the server's peak RSS stays far below the upload's size. A client that resets
 * its connection mid-upload is not an internal fault: nothing is written to stderr for it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const TOKEN = 'upload-test-token-8f2a61c0d9';
const CAP = 1024 * 1024;
const UPLOAD = 200 * 1024 * 1024;

/** The peak resident set of a process, in bytes (Linux). */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

interface Upload {
  readonly status: number;
  readonly body: string;
  /** An error the client saw before the whole response had arrived. */
  readonly errorBeforeResponse: string | undefined;
}

/** Streams `total` bytes (chunked) whatever the server answers, as a naive client would, and reads the response. */
function streamUpload(url: string, total: number): Promise<Upload> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let responded = false;
    let settled = false;
    const done = (upload: Upload): void => {
      if (settled) return;
      settled = true;
      resolve(upload);
    };
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        responded = true;
        done({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          errorBeforeResponse: undefined,
        });
        req.destroy();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!responded) done({ status: 0, body: '', errorBeforeResponse: error.code ?? error.message });
    });
    const pump = (): void => {
      while (sent < total && !req.destroyed) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** Raw request head, then `body` bytes; returns everything the server sent until it closed or replied in full. */
function rawHead(url: string, head: string, body: Buffer | undefined): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString('utf8');
      const end = data.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? -1);
      if (end >= 0 && length >= 0 && data.length >= end + 4 + length) {
        socket.destroy();
        resolve(data);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (data === '' ? reject(error) : resolve(data)));
    socket.on('close', () => resolve(data));
    socket.write(head);
    if (body !== undefined) socket.write(body);
  });
}

function assert413(status: number, body: string): void {
  assert.equal(status, 413);
  const parsed = JSON.parse(body) as { error: { code: number; message: string } };
  assert.equal(parsed.error.message, `request body exceeds ${CAP} bytes`);
}

describe('413 delivery from a real server', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-413-'));
  let child: ChildProcessWithoutNullStreams;
  let url = '';
  let stderr = '';

  before(async () => {
    child = spawn(process.execPath, [MAIN, 'serve', '--transport', 'http', '--port', '0'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: work,
        XDG_STATE_HOME: work,
        RIMTHAN_MCP_BEARER_TOKEN: TOKEN,
        RIMTHAN_MCP_MAX_REQUEST_BYTES: String(CAP),
      },
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    while (url === '') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (child.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
      url = /listening on (\S+)/.exec(stderr)?.[1] ?? '';
    }
  });
  after(async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(work, { recursive: true, force: true });
  });

  test('a 200 MB streamed upload receives the 413 JSON, and the server does not hold the body', async () => {
    const before = peakRss(child.pid ?? 0);
    const upload = await streamUpload(url, UPLOAD);
    assert.equal(upload.errorBeforeResponse, undefined, 'the client saw the 413, not a reset');
    assert413(upload.status, upload.body);
    const growth = peakRss(child.pid ?? 0) - before;
    assert.ok(growth < 64 * 1024 * 1024, `peak RSS grew by ${Math.round(growth / 1048576)} MB`);
  });

  test('a declared over-cap Content-Length is answered before the body, without 100 Continue', async () => {
    const { host } = new URL(url);
    const headOf = (expect: boolean): string =>
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${UPLOAD}\r\n${expect ? 'Expect: 100-continue\r\n' : ''}\r\n`;
    const waited = await rawHead(url, headOf(true), undefined);
    assert.doesNotMatch(waited, /100 Continue/);
    assert.match(waited, /^HTTP\/1\.1 413 /);
    assert413(413, waited.slice(waited.indexOf('\r\n\r\n') + 4));
    // Without Expect the client starts sending at once: the 413 still arrives whole.
    const eager = await rawHead(url, headOf(false), Buffer.alloc(4 * 1024 * 1024, 0x61));
    assert.match(eager, /^HTTP\/1\.1 413 /);
    assert413(413, eager.slice(eager.indexOf('\r\n\r\n') + 4));
    // An acceptable body with Expect gets its 100 Continue, then the answer.
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const small =
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${ping.length}\r\nExpect: 100-continue\r\n\r\n`;
    const continued = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname);
      let data = '';
      socket.on('data', (c: Buffer) => {
        data += c.toString('utf8');
        if (data.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !data.includes('200 OK')) socket.write(ping);
        if (/\r\n\r\n\{.*\}$/s.test(data)) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      socket.write(small);
    });
    assert.match(continued, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
  });

  test('a client resetting mid-upload is not an internal fault', async () => {
    const { hostname, port, host } = new URL(url);
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname);
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
          () => setTimeout(() => socket.resetAndDestroy(), 50),
        );
      });
    }
    // The server still answers, and it wrote nothing about the resets.
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const reply = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: ping,
    });
    assert.equal(reply.status, 200);
    assert.doesNotMatch(stderr, /internal fault/);
  });
});
