/**
 * `--help` and the parsers read the same option tables (src/cli/commands/*-options.ts): every option a command accepts
 * is in its help, every option a help names is accepted by one of the commands it describes (or, for a named cross
 * reference, by `rimthan serve`), and every default a table gives is the one its description states.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { optionDefault } from '../../../src/cli/args.js';
import type { OptionTable } from '../../../src/cli/args.js';
import { DEFAULT_CONSOLE_PORT } from '../../../src/cli/commands/console.js';
import { OPTION_TABLES } from '../../../src/cli/commands/option-tables.js';
import { DEFAULT_HTTP_PORT } from '../../../src/cli/commands/serve.js';
import { helpText } from '../../../src/cli/help.js';
import { IDENTITY_OPTION_NAMES } from '../../../src/cli/identity-options.js';
import { DEFAULT_TOKEN_ENV } from '../../../src/cli/rollout/options.js';

/** Options every help may name: the global ones. */
const GLOBAL = new Set(['--help', '--version', '--debug']);

/** Options of other commands a help names as cross references (`serve --admin-port`), by help topic and command. */
const REFERENCES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  '': { serve: ['--admin-port'] },
  admin: { serve: ['--admin-port'], 'registry build': ['--out'] },
  runs: { serve: ['--profile', '--token-file'] },
  rollout: { serve: ['--oauth-issuer'] },
};

/** The options a text names (`--oauth-*`, a family, is not one). */
const mentions = (text: string): string[] =>
  [...text.matchAll(/(?<![\w-])--[a-z](?:[a-z-]*[a-z])?(?![\w*-])/g)].map((m) => m[0]);
const names = (table: OptionTable): string[] => table.map((row) => `--${row.name}`);

/** The command words whose help is `topic`'s (`runs` → runs list, runs get, …). */
function commandsOf(topic: string): string[] {
  return Object.keys(OPTION_TABLES).filter((words) => helpText(words) === helpText(topic));
}

describe('help and option tables', () => {
  test('every option a command accepts is in its help, with its value placeholder', () => {
    for (const [words, table] of Object.entries(OPTION_TABLES)) {
      const help = helpText(words);
      const named = new Set(mentions(help));
      for (const row of table) {
        assert.ok(named.has(`--${row.name}`), `rimthan ${words} --help does not name --${row.name}`);
        if (row.value !== undefined) {
          assert.ok(help.includes(`--${row.name} ${row.value}`), `rimthan ${words} --help: --${row.name} ${row.value}`);
        }
      }
    }
  });

  test('every option a help names is accepted by a command it describes', () => {
    for (const topic of ['', 'serve', 'console', 'registry', 'runs', 'participant', 'admin', 'rollout']) {
      const accepted = new Set(topic === '' ? Object.values(OPTION_TABLES).flatMap(names) : []);
      for (const words of commandsOf(topic)) for (const name of names(OPTION_TABLES[words] ?? [])) accepted.add(name);
      if (topic !== '') assert.ok(accepted.size > 0 || topic === 'registry', `no commands for ${topic}`);
      const references: string[] = [];
      for (const [words, options] of Object.entries(REFERENCES[topic] ?? {})) {
        const own = names(OPTION_TABLES[words] ?? []);
        for (const name of options) assert.ok(own.includes(name), `rimthan ${words} does not accept ${name}`);
        references.push(...options);
      }
      for (const name of mentions(helpText(topic))) {
        const known = accepted.has(name) || GLOBAL.has(name) || references.includes(name);
        assert.ok(known, `rimthan ${topic} --help names ${name}, which none of its commands accepts`);
      }
    }
  });

  test('every default a table gives is the one its description states, and the one the command uses', () => {
    for (const [words, table] of Object.entries(OPTION_TABLES)) {
      for (const row of table) {
        if (row.default === undefined || row.help === undefined) continue;
        assert.ok(row.help.join(' ').includes(row.default), `${words} --${row.name}: default ${row.default}`);
      }
    }
    assert.equal(String(DEFAULT_HTTP_PORT), optionDefault(OPTION_TABLES['serve'] ?? [], 'port'));
    assert.equal(String(DEFAULT_CONSOLE_PORT), optionDefault(OPTION_TABLES['console'] ?? [], 'port'));
    assert.equal(DEFAULT_TOKEN_ENV, optionDefault(OPTION_TABLES['rollout codex'] ?? [], 'token-env'));
  });

  test("serve's table holds the identity options its stdio refusal names", () => {
    const serve = names(OPTION_TABLES['serve'] ?? []);
    for (const name of IDENTITY_OPTION_NAMES) assert.ok(serve.includes(`--${name}`), `serve lacks --${name}`);
  });

  test('an option is described once per help text', () => {
    for (const words of Object.keys(OPTION_TABLES)) {
      const rows = helpText(words)
        .split('\n')
        .map((line) => /^ {2}(--[a-z][a-z-]*)/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined);
      assert.equal(new Set(rows).size, rows.length, `rimthan ${words} --help describes an option twice`);
    }
  });
});
