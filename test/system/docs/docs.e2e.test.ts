/**
 * Docs that run: the README's two commands, its Inspector examples run against the built server with their shown
 * output compared to what the server returns (every value shown, the manifest digest included), links that resolve,
 * CLI commands and options that exist in the built CLI's help, code blocks that parse, and a TypeScript harness guide
 * that imports only what the package exports.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonObject } from '../../../src/core/index.js';
import { parse as parseToml } from 'smol-toml';
import { packageRoot } from '../../../src/package/index.js';
import {
  anchors,
  codeBlocks,
  codeTexts,
  commandMentions,
  importDeclarations,
  linkTargets,
  markdownFiles,
  shellWords,
} from './markdown.js';
import { mismatches, parseAbbreviated } from './jsonc.js';
import { typecheck } from './typecheck.js';

const ROOT = packageRoot();
/** The compiled output folder this test runs from (dist/, dist-<name>/): the CLI and modules the docs describe. */
const BUILD = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(BUILD, 'src', 'cli', 'main.js');
const DOCS = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
const TS_GUIDE = join(ROOT, 'docs', 'harness', 'typescript-harness.md');
/** Options of the MCP Inspector CLI, which the docs put on the same line as `rimthan serve`. */
const INSPECTOR_OPTIONS = new Set([
  '--cli',
  '--method',
  '--tool-name',
  '--tool-arg',
  '--prompt-name',
  '--prompt-args',
  '--uri',
  '--header',
  '--transport',
]);

const read = (file: string): string => readFileSync(file, 'utf8');
const shown = (file: string): string => relative(ROOT, file);

function help(...topic: string[]): string {
  const run = spawnSync(process.execPath, [MAIN, ...topic, '--help'], { encoding: 'utf8' });
  assert.equal(run.status, 0, `rimthan ${topic.join(' ')} --help exited ${String(run.status)}: ${run.stderr}`);
  return run.stdout;
}

/** The commands of the main help: `serve` → [], `registry` → [check, build, graph], `runs` → [list, get, …]. */
function commandTable(mainHelp: string): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  const section = mainHelp.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  for (const m of section.matchAll(/^ {2}([a-z]+)(?: ([a-z|-]+))?/gm)) {
    const subs = table.get(m[1] ?? '') ?? new Set<string>();
    for (const sub of (m[2] ?? '').split('|')) if (sub !== '') subs.add(sub);
    table.set(m[1] ?? '', subs);
  }
  return table;
}

describe('README', () => {
  const readme = read(join(ROOT, 'README.md'));
  const shellBlocks = codeBlocks(readme)
    .filter((b) => b.lang === 'sh')
    .map((b) => b.body.trim());

  test('shows the set-up-and-run command and the test command exactly, each in its own shell block', () => {
    assert.ok(shellBlocks.includes('npm ci && npm run build && node dist/src/cli/main.js serve'), 'set-up-and-run');
    assert.ok(shellBlocks.includes('npm test'), 'test command');
  });

  test('opens with what Rimthan does, as a Mermaid picture, before the commands', () => {
    const first = codeBlocks(readme)[0];
    assert.equal(first?.lang, 'mermaid');
    assert.ok(readme.indexOf('```mermaid') < readme.indexOf('npm ci && npm run build'));
  });
});

/** One MCP Inspector command of the README and the abbreviated output shown after it. */
interface InspectorExample {
  readonly serverArgs: string[];
  readonly method: string;
  readonly toolName: string | undefined;
  readonly toolArgs: Record<string, unknown>;
  readonly shown: string;
}

/** The README's `npx … inspector … --cli … node dist/src/cli/main.js ARGS --method …` blocks with the jsonc after each. */
function inspectorExamples(markdown: string): InspectorExample[] {
  const blocks = codeBlocks(markdown);
  const out: InspectorExample[] = [];
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (block.lang !== 'sh' || !block.body.includes('@modelcontextprotocol/inspector') || next?.lang !== 'jsonc')
      return;
    const words = shellWords(block.body.trim());
    const main = words.indexOf('dist/src/cli/main.js');
    assert.equal(words[main - 1], 'node', 'the example runs the built CLI with node');
    const methodAt = words.indexOf('--method');
    const toolArgs: Record<string, unknown> = {};
    let toolName: string | undefined;
    for (let w = methodAt + 2; w < words.length; w++) {
      const word = words[w] ?? '';
      if (word === '--tool-name') toolName = words[++w];
      else if (word !== '--tool-arg') {
        const eq = word.indexOf('=');
        assert.ok(eq > 0, `a --tool-arg is key=value: ${word}`);
        const raw = word.slice(eq + 1);
        let value: unknown = raw;
        try {
          value = JSON.parse(raw); // the Inspector's rule: JSON when it parses, else the string
        } catch {
          // a plain string
        }
        toolArgs[word.slice(0, eq)] = value;
      }
    }
    out.push({
      serverArgs: words.slice(main + 1, methodAt),
      method: words[methodAt + 1] ?? '',
      toolName,
      toolArgs,
      shown: next.body,
    });
  });
  return out;
}

/** Members whose value differs on every machine or call: checked for their form, not their value. */
const VARYING: Readonly<Record<string, (value: unknown) => boolean>> = {
  issued_at: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\dT/.test(v),
  key_id: (v) => typeof v === 'string' && /^local-[0-9a-f]{12}$/.test(v),
};

describe('README examples, run against the built server', () => {
  const readme = read(join(ROOT, 'README.md'));
  const examples = inspectorExamples(readme);
  const state = mkdtempSync(join(tmpdir(), 'rimthan-readme-'));
  after(() => rmSync(state, { recursive: true, force: true }));

  /** Does what the Inspector's CLI mode does: launches the server command, sends one request, returns the result. */
  async function inspect(example: InspectorExample): Promise<unknown> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, ...example.serverArgs],
      cwd: state,
      env: { PATH: process.env['PATH'] ?? '', HOME: state, XDG_STATE_HOME: state },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'readme-examples', version: '1.0.0' });
    await client.connect(transport);
    try {
      if (example.method === 'tools/list') return await client.listTools();
      assert.equal(example.method, 'tools/call', `an example method the test knows: ${example.method}`);
      const result = await client.callTool({ name: example.toolName ?? '', arguments: example.toolArgs });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      return result.structuredContent;
    } finally {
      await client.close();
    }
  }

  test('the README shows Inspector commands, each followed by the output it prints', () => {
    assert.ok(examples.length >= 3, `found ${examples.length} examples`);
  });

  for (const example of examples) {
    const name = `${example.method}${example.toolName === undefined ? '' : ` ${example.toolName}`} (serve ${example.serverArgs.slice(1).join(' ')})`;
    test(`${name}: the output shows what the server returns`, async () => {
      const actual = await inspect(example);
      assert.deepEqual(mismatches(parseAbbreviated(example.shown), actual, VARYING), []);
    });
  }

  test('the start without native-subagents is blocked, as the README says', async () => {
    const blockers = [{ code: 'missing_host_capability', capability: 'native-subagents' }];
    assert.ok(
      readme.includes(`\`"blockers": ${JSON.stringify(blockers).replaceAll(',', ', ').replaceAll(':', ': ')}\``),
    );
    const start = examples.find((e) => e.toolName === 'rimthan.start_workflow');
    assert.ok(start !== undefined);
    const host = start.toolArgs['host'] as { host_capabilities: string[] };
    const without = { ...host, host_capabilities: host.host_capabilities.filter((c) => c !== 'native-subagents') };
    const actual = (await inspect({ ...start, toolArgs: { ...start.toolArgs, host: without } })) as JsonObject;
    assert.equal(actual['status'], 'blocked');
    assert.equal(actual['checkpoint'], null);
    assert.deepEqual(actual['blockers'], blockers);
  });
});

describe('links in README.md and docs/**', () => {
  test('every relative link names an existing file, and every #anchor an existing heading', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const target of linkTargets(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, rimthan: …
        const [path = '', fragment] = target.split('#');
        const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const exists = existsSync(resolved);
        const isDir = exists && statSync(resolved).isDirectory();
        if (!exists || (isDir && !existsSync(join(resolved, 'README.md')))) {
          broken.push(`${shown(file)}: ${target} (no such file)`);
          continue;
        }
        if (fragment === undefined || fragment === '') continue;
        const document = isDir ? join(resolved, 'README.md') : resolved;
        if (document.endsWith('.md') && !anchors(read(document)).has(fragment)) {
          broken.push(`${shown(file)}: ${target} (no heading #${fragment})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});

describe('CLI commands in the docs', () => {
  const mainHelp = help();
  const table = commandTable(mainHelp);
  const optionsOf = new Map<string, Set<string>>();
  for (const command of table.keys()) {
    optionsOf.set(command, new Set([...help(command).matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).concat('--help')));
  }
  const mentions = DOCS.flatMap((file) =>
    codeTexts(read(file))
      .flatMap((code) => commandMentions(code))
      .map((m) => ({ file, ...m })),
  );

  test('the help lists the commands the docs are about', () => {
    assert.deepEqual([...table.keys()].sort(), [
      'admin',
      'console',
      'participant',
      'registry',
      'rollout',
      'runs',
      'serve',
    ]);
    assert.ok(mentions.length > 20, `found only ${mentions.length} rimthan command lines in the docs`);
  });

  test('every `rimthan <command> [<subcommand>]` the docs show exists in --help', () => {
    const unknown: string[] = [];
    for (const m of mentions) {
      const subs = table.get(m.command);
      if (subs === undefined) unknown.push(`${shown(m.file)}: rimthan ${m.command} (${m.line})`);
      // A bare group (`rimthan participant`) names the group, whose help lists its subcommands.
      else if (subs.size > 0 && m.subcommand !== undefined && !subs.has(m.subcommand)) {
        unknown.push(`${shown(m.file)}: rimthan ${m.command} ${m.subcommand ?? ''} (${m.line})`);
      }
    }
    assert.deepEqual(unknown, []);
  });

  test("every --option shown after a rimthan command is one of that command's options", () => {
    const unknown: string[] = [];
    for (const m of mentions) {
      const options = optionsOf.get(m.command);
      if (options === undefined) continue;
      for (const flag of m.flags) {
        if (!options.has(flag) && !INSPECTOR_OPTIONS.has(flag)) unknown.push(`${shown(m.file)}: ${flag} (${m.line})`);
      }
    }
    assert.deepEqual(unknown, []);
  });
});

describe('code blocks in docs/harness', () => {
  const files = markdownFiles(join(ROOT, 'docs', 'harness'));

  test('every json block is one JSON value and every toml block is valid TOML', () => {
    const bad: string[] = [];
    for (const file of files) {
      for (const block of codeBlocks(read(file))) {
        try {
          if (block.lang === 'json') JSON.parse(block.body);
          if (block.lang === 'toml') parseToml(block.body);
        } catch (error) {
          bad.push(`${shown(file)}: ${block.lang} block: ${(error as Error).message.split('\n')[0] ?? ''}`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });
});

describe('the TypeScript harness guide', () => {
  const manifest = JSON.parse(read(join(ROOT, 'package.json'))) as { exports: Record<string, unknown> };
  const imports = codeBlocks(read(TS_GUIDE))
    .filter((b) => b.lang === 'ts')
    .flatMap((b) => importDeclarations(b.body));
  const fromPackage = imports.filter((i) => i.specifier === 'rimthan' || i.specifier.startsWith('rimthan/'));

  test('imports rimthan only through subpaths listed in package.json "exports"', () => {
    assert.ok(fromPackage.length >= 5, 'the guide imports from the package');
    for (const i of fromPackage) {
      const key = i.specifier === 'rimthan' ? '.' : `./${i.specifier.slice('rimthan/'.length)}`;
      assert.ok(Object.hasOwn(manifest.exports, key), `${i.specifier} is not exported`);
    }
    for (const i of imports.filter((x) => !fromPackage.includes(x))) {
      assert.match(i.specifier, /^(node:|\.\/|ai$)/, `unexpected import ${i.specifier}`);
    }
  });

  test("its TypeScript files type-check together against the built package, with the project's strict settings", () => {
    const files = codeBlocks(read(TS_GUIDE))
      .filter((b) => b.lang === 'ts')
      .map((b) => ({ name: /^\/\/ ([\w.-]+\.ts)\n/.exec(b.body)?.[1] ?? '', source: b.body }));
    assert.ok(files.length >= 5 && files.every((f) => f.name !== ''), 'every ts block starts with // <file>.ts');
    const diagnostics = typecheck(files, join(ROOT, 'docs', 'harness', '__examples__'), BUILD, manifest.exports);
    assert.deepEqual(diagnostics, []);
  });

  test('every name it imports from rimthan is exported by the built entry point', async () => {
    for (const i of fromPackage) {
      const key = i.specifier === 'rimthan' ? '.' : `./${i.specifier.slice('rimthan/'.length)}`;
      const entry = manifest.exports[key] as { default: string; types: string };
      const built = (path: string): string => join(BUILD, path.replace(/^\.\/dist\//, ''));
      const module = (await import(pathToFileURL(built(entry.default)).href)) as Record<string, unknown>;
      const declarations = read(built(entry.types));
      for (const name of i.values) assert.ok(name in module, `${i.specifier} exports no value ${name}`);
      for (const name of i.types) {
        assert.match(declarations, new RegExp(`\\b${name}\\b`), `${i.specifier} declares no type ${name}`);
      }
    }
  });
});
