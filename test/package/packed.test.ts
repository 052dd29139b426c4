/**
 * The npm package as a user gets it: `npm pack`, unpacked into another project's node_modules beside its runtime
 * dependencies, must serve both profiles from that project. A file the server reads at run time (a release, the
 * bootstrap paragraph, a migration) that the package's "files" leave out fails here, not in a user's `npx rimthan`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packageRoot } from '../../src/core/index.js';

const root = packageRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

interface Packed {
  readonly files: string[];
  readonly project: string;
  readonly main: string;
}

/** Packs the package and installs the tarball into a fresh project, its dependencies linked from this checkout. */
function packAndInstall(workDir: string): Packed {
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', workDir], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(packed.status, 0, `npm pack failed: ${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  const project = join(workDir, 'project');
  const modules = join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const untar = spawnSync('tar', ['-xzf', join(workDir, info.filename), '-C', workDir], { encoding: 'utf8' });
  assert.equal(untar.status, 0, `tar failed: ${untar.stderr}`);
  renameSync(join(workDir, 'package'), join(modules, 'rimthan'));
  for (const name of Object.keys(manifest.dependencies)) {
    const link = join(modules, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  return {
    files: info.files.map((f) => f.path),
    project,
    main: join(modules, 'rimthan', 'dist', 'src', 'cli', 'main.js'),
  };
}

/** An SDK client on `rimthan serve ARGS` started in `cwd`, with a private state directory. */
async function serve(packed: Packed, stateHome: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [packed.main, 'serve', ...args],
    cwd: packed.project,
    env: { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'packed-package-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('the packed npm package', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'rimthan-pack-'));
  const stateHome = join(workDir, 'state');
  let packed: Packed;
  before(() => {
    packed = packAndInstall(workDir);
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  test('ships the compiled server, the releases and the docs it reads, and no tests or sources', () => {
    for (const needed of [
      'dist/src/cli/main.js',
      'releases/ACTIVE',
      'releases/dist/research-2026.11.1.json',
      'releases/dist/research-2026.10.1.json',
      'docs/operations/workflow-engine-bootstrap.md',
      'dist/src/console/assets/index.html',
      'dist/src/console/assets/app.js',
      'dist/src/console/assets/app.css',
    ]) {
      assert.ok(packed.files.includes(needed), `${needed} is in the package`);
    }
    const leaked = packed.files.filter((f) => /^(dist\/test|dist\/bench|src|test|bench|scripts|\.ci)\//.test(f));
    assert.deepEqual(leaked, []);
  });

  test('serves the workflow-engine profile from another project with no configuration', async () => {
    const client = await serve(packed, stateHome, []);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'rimthan.continue_workflow',
        'rimthan.prepare_step_validation',
        'rimthan.start_workflow',
        'rimthan.submit_step_validation',
      ]);
      const prompt = await client.getPrompt({ name: 'rimthan.start_workflow' });
      const text = prompt.messages[0]?.content;
      assert.ok(text?.type === 'text' && text.text.includes('rimthan.start_workflow'), 'the bootstrap paragraph');
      const { resources } = await client.listResources();
      const first = resources[0];
      assert.ok(first !== undefined, 'the release resources are listed');
      const read = await client.readResource({ uri: first.uri });
      assert.ok(read.contents.length > 0);
    } finally {
      await client.close();
    }
    assert.ok(existsSync(join(stateHome, 'rimthan', 'signing-key.json')), 'the generated key went to the state dir');
  });

  test('serves the runs profile from another project, keeping its store in that project', async () => {
    const client = await serve(packed, stateHome, ['--profile', 'runs']);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 7);
      const listed = await client.callTool({ name: 'workflow_definition_list', arguments: {} });
      const definitions = (listed.structuredContent as { definitions: { name: string }[] }).definitions;
      assert.ok(definitions.some((d) => d.name === 'counter_flow'));
    } finally {
      await client.close();
    }
    assert.ok(existsSync(join(packed.project, '.rimthan', 'runs.db')), 'the default store is ./.rimthan/runs.db');
  });
});
