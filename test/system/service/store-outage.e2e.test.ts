/**
 * Pinned releases through a release store outage (issue 20, item 9), with two real `rimthan serve` replicas on a real
 * PostgreSQL store reached through a TCP relay the test closes (the store becomes unreachable: connections refused)
 * and opens again. A workflow started on replica A while the older release was active goes on on replica B while the
 * store is down: B never served it, but it verified that release as its active one and kept it when the newer one
 * replaced it. `/readyz` stays 200 with the note `serving_from_cache` meanwhile, and drops it once the store answers.
 */
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { packageRoot } from '../../../src/package/index.js';
import { callTool } from '../../mcp/support/connect.js';
import { Participant } from '../../mcp/support/participant.js';
import { DECISION_QUESTION } from '../../mcp/support/research-artifacts.js';
import { health } from '../../support/health.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { adminCall, eventually, httpClient, MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';

const DIST = join(packageRoot(), 'releases', 'dist');
const OLD = 'research-2026.11.1';
const NEW = 'research-2026.11.2';
const PARTICIPANT_TOKEN = 'participant-token-0123456789abcdef';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123';

const skip = await postgresSkipReason();

/** A TCP relay to PostgreSQL that can be cut (listener closed, every connection destroyed) and restored. */
class Relay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  }
}

describe(
  'pinned releases while the PostgreSQL release store is unreachable',
  { skip: skip ?? false, timeout: 300_000 },
  () => {
    const work = mkdtempSync(join(tmpdir(), 'rimthan-outage-'));
    const schema = uniqueSchema('outage');
    const target = new URL(TEST_PG_URL);
    const relay = new Relay({ host: target.hostname, port: Number(target.port || '5432') });
    let a: ServeProcess;
    let b: ServeProcess;
    let clientA: Client;
    let clientB: Client;
    let mcp: string;

    // Asynchronous: the relay lives in this process and must go on forwarding while the command runs.
    const admin = async (args: string[]): Promise<void> => {
      await promisify(execFile)(process.execPath, [MAIN, 'admin', ...args, '--url', a.adminUrl ?? ''], {
        env: { PATH: process.env['PATH'] ?? '', RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN },
      });
    };
    const activeIs = async (release: string): Promise<boolean> => {
      for (const r of [a, b]) {
        const ready = await adminCall(r.adminUrl ?? '', ADMIN_TOKEN, 'GET', '/readyz');
        if ((ready.value['active'] as { release?: string } | null)?.release !== release) return false;
      }
      return true;
    };

    before(async () => {
      await relay.open();
      const relayed = new URL(TEST_PG_URL);
      relayed.port = String(relay.port);
      relayed.searchParams.set('schema', schema);
      writeFileSync(join(work, 'participants'), `${PARTICIPANT_TOKEN}\n`);
      writeFileSync(join(work, 'admins'), `${ADMIN_TOKEN}\n`);
      const args = [
        ...['--transport', 'http', '--port', '0', '--releases', relayed.href],
        ...[
          '--token-file',
          join(work, 'participants'),
          '--admin-port',
          '0',
          '--admin-token-file',
          join(work, 'admins'),
        ],
      ];
      const env = {
        RIMTHAN_WORKFLOW_SIGNING_SECRET: 'outage-test-secret-0123456789abcdef0123',
        HOME: work,
        XDG_STATE_HOME: work,
      };
      [a, b] = await Promise.all([spawnServe(args, env), spawnServe(args, env)]);
      mcp = new URL(b.url).origin;
      clientA = await httpClient(a.url, PARTICIPANT_TOKEN);
      clientB = await httpClient(b.url, PARTICIPANT_TOKEN);
    });
    after(async () => {
      await clientA?.close().catch(() => undefined);
      await clientB?.close().catch(() => undefined);
      await Promise.all([a?.stop(), b?.stop()]);
      await relay.cut();
      await dropSchema(schema);
      rmSync(work, { recursive: true, force: true });
    });

    test('a workflow pinned to the older release goes on on the other replica through the outage; readyz says serving_from_cache', async () => {
      await admin(['publish', join(DIST, `${OLD}.json`)]);
      await admin(['activate', OLD]);
      await eventually(`${OLD} active`, () => activeIs(OLD));
      // The workflow's calls go to A until the outage, then to B.
      let onB = false;
      const p = new Participant((name, args) => callTool(onB ? clientB : clientA, name, args));
      await p.start();
      assert.equal((await p.passStep())['status'], 'advanced');
      assert.equal(p.checkpoint?.['registry_release'], OLD);

      await admin(['publish', join(DIST, `${NEW}.json`)]);
      await admin(['activate', NEW]);
      await eventually(`${NEW} active`, () => activeIs(NEW));
      assert.deepEqual((await health(mcp, '/readyz')).body, { status: 'ready' });

      await relay.cut();
      onB = true;
      await eventually('readyz notices the outage', async () => {
        const ready = await health(mcp, '/readyz');
        return ready.status === 200 && (ready.body as { note?: string }).note === 'serving_from_cache';
      });
      // The pinned workflow goes on, on its pinned release.
      const interviewed = await p.continue({
        ...(p.state['state'] as JsonObject),
        decision_question: DECISION_QUESTION,
        candidate_options: ['kafka', 'rabbitmq'],
      });
      assert.equal(interviewed['status'], 'active', JSON.stringify(interviewed).slice(0, 400));
      assert.equal(p.checkpoint?.['registry_release'], OLD);
      // A new start gets the active release, from the verified snapshot.
      const fresh = new Participant((name, args) => callTool(clientB, name, args));
      await fresh.start();
      assert.equal(fresh.checkpoint?.['registry_release'], NEW);
      const ready = await health(mcp, '/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'ready', note: 'serving_from_cache' });

      await relay.open();
      await eventually('readyz recovers', async () => {
        const again = await health(mcp, '/readyz');
        return again.status === 200 && JSON.stringify(again.body) === '{"status":"ready"}';
      });
    });
  },
);
