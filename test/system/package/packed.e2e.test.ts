/**
 * The npm package as a user gets it, made the way a user makes it: a clean checkout (the files Git would check out,
 * without dist/ or node_modules) packed with `npm pack`, whose `prepack` script builds dist/. The tarball, unpacked into
 * another project's node_modules beside its runtime dependencies, must run its `rimthan` bin and serve both profiles
 * from that project; `npm install -g` of the checkout must put a working `rimthan` on the PATH. A file the server
 * reads at run time (a release, the bootstrap paragraph, a migration) that the package's "files" leave out, or a
 * build step that `npm pack` skips, fails here, not in a user's `npx rimthan`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packageRoot } from '../../../src/package/index.js';

const root = packageRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
const inGit = spawnSync('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' });
const NOT_A_CHECKOUT =
  inGit.status === 0 ? false : 'the package root is not a Git work tree (no clean checkout to pack)';

interface Packed {
  readonly files: string[];
  readonly checkout: string;
  readonly project: string;
  /** The project's `node_modules/.bin/rimthan`, linked as npm links a bin. */
  readonly bin: string;
}

/**
 * Copies what a clean checkout holds (tracked files and new files Git does not ignore, as they are in the work tree)
 * to `dir`, links this checkout's node_modules (the packages `npm ci` would install), and returns `dir`.
 */
function cleanCheckout(dir: string): string {
  const listed = spawnSync('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  });
  assert.equal(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split('\0').filter((f) => f !== '')) {
    const from = join(root, file);
    if (!existsSync(from) || statSync(from).isDirectory()) continue; // deleted in the work tree, or a submodule
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(from, join(dir, file));
  }
  assert.equal(existsSync(join(dir, 'dist')), false, 'the checkout holds no build');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Packs a clean checkout (prepack builds dist/) and installs the tarball into a fresh project. */
function packAndInstall(workDir: string): Packed {
  const checkout = cleanCheckout(join(workDir, 'checkout'));
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', workDir], {
    cwd: checkout,
    encoding: 'utf8',
  });
  assert.equal(packed.status, 0, `npm pack failed: ${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [
    { filename: string; files: { path: string; mode: number }[] },
  ];
  const project = join(workDir, 'project');
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  const untar = spawnSync('tar', ['-xzf', join(workDir, info.filename), '-C', workDir], { encoding: 'utf8' });
  assert.equal(untar.status, 0, `tar failed: ${untar.stderr}`);
  renameSync(join(workDir, 'package'), join(modules, 'rimthan'));
  for (const name of Object.keys(manifest.dependencies)) {
    const link = join(modules, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  // What npm's bin-links does on install: the bin target made executable, linked from node_modules/.bin.
  const bin = join(modules, '.bin', 'rimthan');
  chmodSync(join(modules, 'rimthan', 'dist', 'src', 'cli', 'main.js'), 0o755);
  symlinkSync('../rimthan/dist/src/cli/main.js', bin);
  return { files: info.files.map((f) => f.path), checkout, project, bin };
}

/** An SDK client on `rimthan serve ARGS` started in `cwd`, with a private state directory. */
async function serve(packed: Packed, stateHome: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: packed.bin,
    args: ['serve', ...args],
    cwd: packed.project,
    env: { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'packed-package-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('the packed npm package', { skip: NOT_A_CHECKOUT }, () => {
  const workDir = mkdtempSync(join(tmpdir(), 'rimthan-pack-'));
  const stateHome = join(workDir, 'state');
  let packed: Packed;
  before(() => {
    packed = packAndInstall(workDir);
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  test('npm pack of a clean checkout builds dist/ (prepack); the bin runs as `rimthan` from the project', () => {
    const version = spawnSync(packed.bin, ['--version'], { cwd: packed.project, encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), manifest.version);
    const help = spawnSync('rimthan', ['--help'], {
      cwd: packed.project,
      encoding: 'utf8',
      env: { PATH: `${join(packed.project, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}` },
    });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: rimthan <command>/);
  });

  test('npm install -g of the built checkout puts a working rimthan on the PATH', () => {
    const prefix = join(workDir, 'global');
    const installed = spawnSync(
      'npm',
      ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, '.'],
      {
        cwd: packed.checkout,
        encoding: 'utf8',
      },
    );
    assert.equal(installed.status, 0, installed.stderr);
    const version = spawnSync('rimthan', ['--version'], {
      cwd: workDir,
      encoding: 'utf8',
      env: { PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}` },
    });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), manifest.version);
  });

  test('ships the compiled server, the releases, the docs it reads and the authoring kit, and no tests or sources', () => {
    for (const needed of [
      'dist/src/cli/main.js',
      'releases/ACTIVE',
      'releases/MIGRATION_TARGET',
      'releases/dist/research-2026.11.2.json',
      'releases/dist/research-2026.11.1.json',
      'releases/dist/research-2026.10.1.json',
      'docs/operations/workflow-engine-bootstrap.md',
      'schemas/authoring/workflow.schema.json',
      'schemas/authoring/scenario.schema.json',
      'templates/registry-init/registry.yaml',
      'dist/src/console/assets/index.html',
      'dist/src/console/assets/app.js',
      'dist/src/console/assets/app.css',
    ]) {
      assert.ok(packed.files.includes(needed), `${needed} is in the package`);
    }
    const leaked = packed.files.filter((f) => /^(dist\/test|dist\/bench|src|test|bench|scripts|\.ci)\//.test(f));
    assert.deepEqual(leaked, []);
  });

  test('the authoring kit works from the installed package: init, then check and route tests at 100%', () => {
    const run = (...args: string[]) =>
      spawnSync(packed.bin, args, {
        cwd: packed.project,
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome },
      });
    const init = run('registry', 'init', 'kit-source', '--workflow', 'plan-work');
    assert.equal(init.status, 0, init.stderr);
    const check = run('registry', 'check', 'kit-source');
    assert.equal(check.status, 0, check.stdout);
    const routes = run('registry', 'test', 'kit-source', '--min-coverage', '100');
    assert.equal(routes.status, 0, routes.stdout);
    const workflow = readFileSync(join(packed.project, 'kit-source', 'workflows', 'plan-work@0.1.0.yaml'), 'utf8');
    const schema = /^# yaml-language-server: \$schema=(.+)$/m.exec(workflow)?.[1] ?? '';
    const resolved = join(packed.project, 'kit-source', 'workflows', schema);
    assert.equal(
      resolved,
      join(packed.project, 'node_modules', 'rimthan', 'schemas', 'authoring', 'workflow.schema.json'),
    );
    assert.ok(existsSync(resolved), 'the modeline names the installed schema');
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
      assert.deepEqual(
        definitions.map((d) => d.name),
        ['release_notes'],
      );
    } finally {
      await client.close();
    }
    assert.ok(existsSync(join(packed.project, '.rimthan', 'runs.db')), 'the default store is ./.rimthan/runs.db');
    assert.ok(existsSync(join(packed.project, '.rimthan', '.gitignore')), 'kept out of Git');
    assert.ok(existsSync(join(packed.project, '.rimthan', 'runs.db.stdio-session')), 'the stdio session is kept');
  });
});
