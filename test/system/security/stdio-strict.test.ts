/**
 * The stdio transport decodes like HTTP does (spec: run-tools-contract.md "duplicate keys are rejected"; data
 * perimeter "a size limit on every input"): each line is one strict JSON message, bounded in size; a refused line is
 * answered (for its request id when it has one) and the server keeps serving.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createMcpServer, serveStdio } from '../../../src/mcp/index.js';
import { NEW_RELEASE, tempReleaseStore, workflowProfile } from '../../mcp/support/connect.js';

interface Line {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

describe('strict stdio transport', () => {
  let releases: ReturnType<typeof tempReleaseStore>;
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: Line[] = [];
  const waiters: (() => void)[] = [];
  let buffered = '';
  let served: Promise<void>;

  before(() => {
    releases = tempReleaseStore(NEW_RELEASE);
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        received.push(JSON.parse(buffered.slice(0, nl)) as Line);
        buffered = buffered.slice(nl + 1);
        for (const w of waiters.splice(0)) w();
      }
    });
    const profile = workflowProfile(releases.store);
    served = serveStdio(() => createMcpServer(profile), undefined, {
      stdin,
      stdout,
      maxMessageBytes: 4096,
    });
  });
  after(async () => {
    stdin.end();
    await served;
    releases.cleanup();
  });

  async function next(): Promise<Line> {
    while (received.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
    const line = received.shift();
    assert.ok(line !== undefined);
    return line;
  }

  async function send(text: string): Promise<Line> {
    stdin.write(`${text}\n`);
    return next();
  }

  test('a well-formed request is answered', async () => {
    const reply = await send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    assert.deepEqual(reply, { jsonrpc: '2.0', id: 1, result: {} });
  });

  test('duplicate keys are refused for the request id instead of keeping the last', async () => {
    const reply = await send(
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rimthan.start_workflow","arguments":{"workflow":"a","workflow":"b"}}}',
    );
    assert.equal(reply.id, 2);
    assert.equal(reply.error?.code, -32700);
  });

  test('__proto__ keys and non-finite numbers are refused by the strict parser as parse errors', async () => {
    const proto = await send(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rimthan.start_workflow","arguments":{"__proto__":{"a":1}}}}',
    );
    assert.equal(proto.error?.code, -32700);
    const huge = await send(
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"rimthan.start_workflow","arguments":{"n":-1e999}}}',
    );
    assert.equal(huge.error?.code, -32700);
  });

  test('text that is not JSON is a parse error with a null id; lone surrogates and deep nesting too', async () => {
    for (const text of ['{not json', '{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"x":"\\ud800"}}}']) {
      const reply = await send(text);
      assert.equal(reply.error?.code, -32700, text);
    }
    const deep = await send(
      `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"_meta":{"x":${'['.repeat(100)}${']'.repeat(100)}}}}`,
    );
    assert.equal(deep.error?.code, -32700);
  });

  test('a line over the size cap is refused without being buffered whole, and the next line is served', async () => {
    stdin.write('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"');
    for (let i = 0; i < 8; i++) stdin.write('x'.repeat(4096));
    const refused = await next();
    assert.equal(refused.error?.code, -32600);
    assert.equal(refused.id, null);
    stdin.write('"}}}\n');
    const reply = await send('{"jsonrpc":"2.0","id":8,"method":"ping"}');
    assert.deepEqual(reply, { jsonrpc: '2.0', id: 8, result: {} });
  });

  test('an empty batch and a notification with bad JSON get no crash; the server still answers', async () => {
    const empty = await send('[]');
    assert.equal(empty.error?.code, -32600);
    const reply = await send('{"jsonrpc":"2.0","id":9,"method":"ping"}');
    assert.equal(reply.id, 9);
  });
});
