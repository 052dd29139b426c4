/**
 * What a `rimthan serve` over stdio has loaded when it writes its first answer. An MCP host waits for that answer
 * (Claude Code falls back after ~2.8 s, Codex starts without the tools), so the start path loads only what the chosen
 * profile and transport need: no HTTP stack, Admin API, console or identity providers, no PostgreSQL driver for a
 * SQLite or packaged store, no metrics library, and no Ajv (Rimthan's own schemas compile once the host is answered).
 * A spawned child records its modules through a resolve hook and the require cache (test/support/module-trace.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const TRACE = pathToFileURL(fileURLToPath(new URL('../support/module-trace.js', import.meta.url))).href;

/** Loaded by neither profile before the first answer over stdio. */
const NEVER = [
  { what: 'the PostgreSQL driver', pattern: /node_modules\/pg\// },
  { what: 'Ajv', pattern: /node_modules\/ajv\// },
  { what: 'the metrics library', pattern: /node_modules\/prom-client\// },
  { what: 'the JWT library', pattern: /node_modules\/jose\// },
  { what: 'the YAML library', pattern: /node_modules\/yaml\// },
  { what: 'the HTTP transport', pattern: /dist\/src\/mcp\/transports\/http\.js$/ },
  { what: 'the Admin API', pattern: /dist\/src\/admin\// },
  { what: 'the console', pattern: /dist\/src\/console\// },
  { what: 'the identity providers', pattern: /dist\/src\/identity\/(jwt|jwks|index)\.js$/ },
];

/** Starts `rimthan serve ARGS`, sends one initialize, and returns the modules loaded when the answer was written. */
async function modulesAtFirstAnswer(args: readonly string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-start-modules-'));
  const trace = join(dir, 'modules');
  try {
    const child = spawn(process.execPath, ['--import', TRACE, MAIN, 'serve', ...args], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', XDG_STATE_HOME: join(dir, 'state'), RIMTHAN_MODULE_TRACE: trace },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const answered = new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const answer = await Promise.race([answered, exited.then(() => `exited: ${stderr}`)]);
    assert.match(answer, /"result":\{"protocolVersion":"2025-11-25"/);
    child.stdin.end();
    assert.equal(await exited, 0, stderr);
    return readFileSync(`${trace}.first`, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertNeverLoaded(modules: readonly string[]): void {
  for (const { what, pattern } of NEVER) {
    const loaded = modules.filter((m) => pattern.test(m));
    assert.deepEqual(loaded, [], `${what} was loaded before the first answer`);
  }
}

describe('what a stdio serve loads before its first answer', () => {
  test('the workflow-engine profile loads the SDK and the release store, nothing for HTTP, PostgreSQL or runs', async () => {
    const modules = await modulesAtFirstAnswer([]);
    // The trace sees ES modules and CommonJS modules alike, or the absences below would prove nothing.
    assert.ok(
      modules.some((m) => /@modelcontextprotocol\/server\//.test(m)),
      'the trace sees ES modules',
    );
    assert.ok(
      modules.some((m) => /dist\/src\/registry\/store\/folder-store\.js$/.test(m)),
      'the release store',
    );
    assertNeverLoaded(modules);
    assert.deepEqual(
      modules.filter((m) => /node_modules\/better-sqlite3\/|dist\/src\/runs\//.test(m)),
      [],
      'the run store was loaded by the workflow-engine profile',
    );
  });

  test('the runs profile on SQLite loads better-sqlite3, never the PostgreSQL driver or the guided engine', async () => {
    const modules = await modulesAtFirstAnswer(['--profile', 'runs']);
    assert.ok(
      modules.some((m) => /node_modules\/better-sqlite3\//.test(m)),
      'the trace sees CommonJS modules',
    );
    assertNeverLoaded(modules);
    assert.deepEqual(
      modules.filter((m) => /dist\/src\/guided\//.test(m)),
      [],
      'the guided engine was loaded by the runs profile',
    );
  });
});
