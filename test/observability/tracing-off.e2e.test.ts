/**
 * Tracing is off unless the `OTEL_*` variables ask for it, and off costs nothing: a stdio `rimthan serve` without
 * them never loads an OpenTelemetry module (a resolve hook and the require cache record what the spawned process
 * loaded, test/support/module-trace.ts). With an OTLP endpoint set the same start loads the SDK, still answers over
 * stdio (the SDK writes nothing to stdout), and exports its request spans as `network.transport=pipe`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startOtlpReceiver } from './support/otlp-receiver.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const TRACE = pathToFileURL(fileURLToPath(new URL('../support/module-trace.js', import.meta.url))).href;
const OTEL = /node_modules\/@opentelemetry\/|dist\/src\/observability\/tracing(-sdk)?\.js$/;

/** `rimthan serve` over stdio: initialize, tools/list, stdin closed; every module it loaded (first answer and later). */
async function stdioServe(env: Readonly<Record<string, string>>): Promise<{ modules: string[]; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-otel-off-'));
  const trace = join(dir, 'modules');
  try {
    const child = spawn(process.execPath, ['--import', TRACE, MAIN, 'serve'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', XDG_STATE_HOME: join(dir, 'state'), RIMTHAN_MODULE_TRACE: trace, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = (n: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (stdout.split('\n').length > n) resolve();
        };
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          check();
        });
      });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    const answered = lines(2);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await Promise.race([answered, exited.then(() => assert.fail(`exited early: ${stderr}`))]);
    child.stdin.end();
    assert.equal(await exited, 0, stderr);
    const all = [`${trace}.first`, trace].filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8'));
    return {
      modules: all
        .join('\n')
        .split('\n')
        .filter((l) => l !== ''),
      stdout,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('tracing off unless OTEL_* asks for it', { timeout: 120_000 }, () => {
  test('without OTEL_* variables a stdio serve never loads OpenTelemetry', async () => {
    const { modules, stdout } = await stdioServe({});
    const answers = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { id?: number; result?: object });
    assert.ok(
      answers.some((a) => a.id === 2 && a.result !== undefined && 'tools' in a.result),
      'tools/list answered',
    );
    assert.ok(
      modules.some((m) => /@modelcontextprotocol\/server\//.test(m)),
      'the trace sees the modules loaded',
    );
    assert.deepEqual(
      modules.filter((m) => OTEL.test(m)),
      [],
    );
  });

  test('OTEL_TRACES_EXPORTER=none and OTEL_SDK_DISABLED=true keep it off even with an endpoint', async () => {
    for (const off of [{ OTEL_TRACES_EXPORTER: 'none' }, { OTEL_SDK_DISABLED: 'true' }]) {
      const { modules } = await stdioServe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', ...off });
      assert.deepEqual(
        modules.filter((m) => OTEL.test(m)),
        [],
        JSON.stringify(off),
      );
    }
  });

  test('with an OTLP endpoint the stdio serve still answers and exports its request spans (pipe)', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { modules, stdout } = await stdioServe({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      assert.ok(
        modules.some((m) => /node_modules\/@opentelemetry\/sdk-trace\//.test(m)),
        'the SDK was loaded',
      );
      // Only protocol on stdout: each line one JSON-RPC message.
      for (const line of stdout.split('\n').filter((l) => l !== '')) assert.equal(JSON.parse(line).jsonrpc, '2.0');
      const spans = receiver.spans();
      const list = spans.find((s) => s.name === 'tools/list');
      assert.ok(list !== undefined, spans.map((s) => s.name).join(', '));
      assert.equal(list.attributes['network.transport'], 'pipe');
      assert.equal(list.attributes['mcp.protocol.version'], '2025-11-25');
      assert.equal(list.resource['service.name'], 'rimthan');
    } finally {
      await receiver.close();
    }
  });
});
