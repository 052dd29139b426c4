/**
 * docs/authoring/first-workflow.md runs as written, from an empty folder, with the built CLI as `rimthan`: each `sh`
 * block is run (`sh fails` must exit 1), each `sh background` block is started and waited for until it listens, each
 * `diff` block is applied to the file it names, and each `text` block's lines must appear in the output of what ran
 * last (`<...>` stands for a varying part; a background server's stderr is waited for). The doc's fixed ports are
 * swapped for free ones. At the end the agent's view is checked: the development build answers a start by the alias the
 * tutorial added, and the service serves the published release.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject } from '../../../src/core/index.js';
import { packageRoot } from '../../../src/package/index.js';
import { callTool } from '../../mcp/support/connect.js';
import { confirmed, LIBRARY_HOST, Participant } from '../../mcp/support/participant.js';
import { codeBlocks } from './markdown.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const DOC = readFileSync(join(packageRoot(), 'docs', 'authoring', 'first-workflow.md'), 'utf8');
const DOC_PORTS = ['18765', '18766', '18767'];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A `text` line as a pattern: `<...>` matches anything, the rest literally. */
function linePattern(line: string): RegExp {
  const source = line
    .split(/<[^<>]+>/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${source}$`);
}

interface Background {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  stderr: string;
}

describe('docs/authoring/first-workflow.md, run as written', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-first-workflow-'));
  const bin = join(work, 'bin');
  const home = join(work, 'tutorial');
  const env = {
    PATH: `${bin}:${process.env['PATH'] ?? ''}`,
    HOME: work,
    XDG_STATE_HOME: join(work, 'state'),
  };
  const background: Background[] = [];
  after(async () => {
    for (const b of background) {
      if (b.child.exitCode === null && b.child.signalCode === null) b.child.kill('SIGTERM');
      await b.exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  test('every command, edit and shown output of the tutorial, in order', async () => {
    mkdirSync(bin);
    mkdirSync(home);
    writeFileSync(join(bin, 'rimthan'), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
    chmodSync(join(bin, 'rimthan'), 0o755);
    let doc = DOC;
    const ports: Record<string, number> = {};
    for (const port of DOC_PORTS) {
      ports[port] = await freePort();
      doc = doc.replaceAll(port, String(ports[port]));
    }

    /** What the last command printed: final for a command, live for a background server. */
    let output: () => string = () => '';
    let live = false;
    let ran = 0;
    for (const block of codeBlocks(doc)) {
      const words = block.info.split(/\s+/);
      if (block.lang === 'sh' && words.includes('background')) {
        const child = spawn('sh', ['-c', `exec ${block.body.trim()}`], {
          cwd: home,
          env,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        const b: Background = {
          child,
          exited: new Promise<void>((resolve) => child.once('exit', () => resolve())),
          stderr: '',
        };
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (b.stderr += chunk));
        background.push(b);
        const admin = block.body.includes('--admin-port');
        while (!/profile listening on/.test(b.stderr) || (admin && !/admin listening on/.test(b.stderr))) {
          assert.equal(child.exitCode, null, `${block.body.trim()} exited:\n${b.stderr}`);
          await sleep(25);
        }
        output = () => b.stderr;
        live = true;
        ran++;
      } else if (block.lang === 'sh') {
        const result = spawnSync('sh', ['-e', '-c', block.body], { cwd: home, env, encoding: 'utf8' });
        const expected = words.includes('fails') ? 1 : 0;
        const printed = `${result.stdout}${result.stderr}`;
        assert.equal(result.status, expected, `${block.body.trim()}\n${printed}`);
        output = () => printed;
        live = false;
        ran++;
      } else if (block.lang === 'diff') {
        const [header = '', ...lines] = block.body.replace(/\n$/, '').split('\n');
        const file = /^--- (.+)$/.exec(header)?.[1];
        assert.ok(file !== undefined, `a diff block opens with --- FILE: ${header}`);
        const before = lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
        const after = lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
        const path = join(home, file);
        const text = readFileSync(path, 'utf8');
        const from = `${before.join('\n')}\n`;
        assert.equal(text.split(from).length, 2, `${file} holds the diff's old lines once:\n${from}`);
        writeFileSync(path, text.replace(from, `${after.join('\n')}\n`));
        ran++;
      } else if (block.lang === 'text') {
        for (const line of block.body.replace(/\n$/, '').split('\n')) {
          const pattern = linePattern(line);
          const found = (): boolean =>
            output()
              .split('\n')
              .some((l) => pattern.test(l.trimEnd()));
          while (live && !found()) await sleep(25);
          assert.ok(found(), `shown output "${line}" is not in:\n${output()}`);
        }
      }
    }
    assert.ok(ran >= 12, `ran ${ran} blocks`);

    // The agent's view: the development build starts by the alias the tutorial added ...
    const dev = new Client({ name: 'first-workflow-doc', version: '1.0.0' });
    await dev.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${ports['18765'] ?? 0}/mcp`)));
    try {
      const participant = new Participant((name, args) => callTool(dev, name, args), {
        ...LIBRARY_HOST,
        validator_capabilities: ['workspace.read'],
      });
      participant.state = confirmed({ goal: 'Move the nightly sales report to the read replica' });
      const started = await participant.start('plan');
      const checkpoint = started['checkpoint'] as JsonObject;
      assert.match(checkpoint['registry_release'] as string, /^plan-work-0\.1\.0-dev\.[0-9a-f]{8}$/);
      assert.deepEqual(checkpoint['workflow'], { id: 'plan-work', version: '0.1.0' });
    } finally {
      await dev.close();
    }
    // ... and the service serves the published release.
    const listed = spawnSync(
      'sh',
      [
        '-c',
        `RIMTHAN_ADMIN_BEARER_TOKEN="$(cat admin-token)" rimthan admin list --url http://127.0.0.1:${ports['18767'] ?? 0}/admin`,
      ],
      { cwd: home, env, encoding: 'utf8' },
    );
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /plan-work-0\.1\.0/);
    assert.match(listed.stdout, /active/);
  });
});
