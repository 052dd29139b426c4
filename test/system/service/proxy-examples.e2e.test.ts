/**
 * The reverse-proxy examples of docs/operations/deployment.md, read from the page so they cannot drift: the health
 * request each one sends (path, method, the Host it sends, the status it counts as healthy) is made against a real
 * `rimthan serve` replica configured as the page says. A replica that is not ready (no active release yet) must fail
 * the check, a ready one pass it, with no credential; the nginx example keeps the access log off (the participant-data
 * perimeter) and moves on to the next replica on a 503.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';
import { health } from '../../support/health.js';
import { eventually, MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';

const ROOT = packageRoot();
const PAGE = readFileSync(join(ROOT, 'docs', 'operations', 'deployment.md'), 'utf8');
const RELEASE = 'research-2026.11.1';
const PARTICIPANT_TOKEN = 'participant-token-0123456789abcdef';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef0123';

/** The one fenced block of `language` on the page. */
function block(language: string): string {
  const blocks = [...PAGE.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');
  assert.equal(blocks.length, 1, `one ${language} example`);
  return blocks[0] ?? '';
}

/** A directive's arguments (the first match of `pattern` in `text`), or a failure naming what is missing. */
function must(text: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(text);
  assert.ok(match !== null, `the example has ${what}`);
  return match;
}

/** What a proxy's active health check sends and expects. */
interface Check {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly healthy: number;
  /** The Host it sends, given the replica's address. */
  readonly host: (replica: string) => string;
}

function caddyCheck(): Check {
  const caddy = block('caddy');
  const site = must(caddy, /^(\S+) \{/m, 'a site address')[1] ?? '';
  const proxied = must(caddy, /reverse_proxy (\S+) /, 'reverse_proxy')[1];
  const path = must(caddy, /^\s*health_uri (\S+)$/m, 'health_uri')[1] ?? '';
  const healthy = Number(must(caddy, /^\s*health_status (\d{3})$/m, 'health_status')[1]);
  assert.notEqual(path, proxied, 'the health check is not the proxied MCP path (it needs a credential)');
  assert.doesNotMatch(caddy, /^\s*log\b/m, 'no access log');
  assert.ok(site !== '');
  // Caddy's active checks send the upstream's address as Host (no health_headers in the example).
  assert.doesNotMatch(caddy, /health_headers/);
  return { name: 'caddy', method: 'GET', path, healthy, host: (replica) => replica };
}

function nginxCheck(): Check {
  const nginx = block('nginx');
  const server = must(nginx, /^server \{\n([\s\S]*?)^\}/m, 'a server block')[1] ?? '';
  assert.match(server, /^\s*access_log off;$/m, 'the access log is off');
  const serverName = must(server, /^\s*server_name (\S+);$/m, 'server_name')[1] ?? '';
  const check = must(nginx, /^\s*health_check uri=(\S+) .*match=(\w+);/m, 'health_check');
  const match = must(nginx, new RegExp(`^match ${check[2] ?? ''} \\{\\n\\s*status (\\d{3});`, 'm'), 'its match block');
  assert.match(nginx, /proxy_next_upstream [^;]*\bhttp_503\b/, 'a 503 moves on to the next replica');
  assert.match(nginx, /proxy_set_header Host \$host;/);
  // NGINX Plus sends the Host the location sets: `$host` is the server name in a health check.
  return {
    name: 'nginx',
    method: 'GET',
    path: check[1] ?? '',
    healthy: Number(match[1]),
    host: () => serverName,
  };
}

describe('the documented proxy health checks against a real replica', { timeout: 300_000 }, () => {
  const checks = [caddyCheck(), nginxCheck()];
  const work = mkdtempSync(join(tmpdir(), 'rimthan-proxy-examples-'));
  let serve: ServeProcess;
  let replica: string;

  before(async () => {
    mkdirSync(join(work, 'releases'));
    writeFileSync(join(work, 'participants'), `${PARTICIPANT_TOKEN}\n`);
    writeFileSync(join(work, 'admins'), `${ADMIN_TOKEN}\n`);
    // The replica as "Running a replica" starts it: participant tokens, the public host allowed, an Admin API.
    serve = await spawnServe(
      [
        ...['--transport', 'http', '--host', '127.0.0.1', '--port', '0', '--releases', join(work, 'releases')],
        ...['--token-file', join(work, 'participants'), '--allowed-host', 'mcp.example.org'],
        ...['--allowed-origin', 'https://mcp.example.org'],
        ...['--admin-port', '0', '--admin-token-file', join(work, 'admins')],
      ],
      {
        RIMTHAN_WORKFLOW_SIGNING_SECRET: 'proxy-example-secret-0123456789abcdef0123',
        HOME: work,
        XDG_STATE_HOME: work,
      },
    );
    replica = new URL(serve.url).host;
  });
  after(async () => {
    await serve?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('a replica with no active release fails every documented check', async () => {
    for (const check of checks) {
      const answer = await health(`http://${replica}`, check.path, check.host(replica), check.method);
      assert.notEqual(answer.status, check.healthy, `${check.name}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.status, 503, check.name);
    }
  });

  test('once a release is active every documented check passes, without a credential', async () => {
    const admin = (args: string[]): void => {
      const run = spawnSync(process.execPath, [MAIN, 'admin', ...args, '--url', serve.adminUrl ?? ''], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN },
      });
      assert.equal(run.status, 0, run.stderr);
    };
    admin(['publish', join(ROOT, 'releases', 'dist', `${RELEASE}.json`)]);
    admin(['activate', RELEASE]);
    for (const check of checks) {
      await eventually(`${check.name} check passes`, async () => {
        const answer = await health(`http://${replica}`, check.path, check.host(replica), check.method);
        return answer.status === check.healthy;
      });
    }
  });
});
