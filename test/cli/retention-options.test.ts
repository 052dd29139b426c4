import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommand } from '../../src/cli/args.js';
import { SERVE_OPTIONS } from '../../src/cli/commands/serve-options.js';
import { UsageError } from '../../src/cli/errors.js';
import { serveRetention } from '../../src/cli/retention-options.js';

const parse = (argv: string[]) => parseCommand(argv, SERVE_OPTIONS, 'serve');

test('--retain-for and --retain-last become the default retention rule of the worker', () => {
  assert.equal(serveRetention(parse([]), 'serve'), undefined);
  assert.deepEqual(serveRetention(parse(['--retain-for', '30d']), 'serve'), { default: { maxAgeMs: 30 * 86_400_000 } });
  assert.deepEqual(serveRetention(parse(['--retain-last', '0']), 'serve'), { default: { keepLast: 0 } });
  assert.deepEqual(serveRetention(parse(['--retain-for', '90m', '--retain-last', '5']), 'serve'), {
    default: { maxAgeMs: 90 * 60_000, keepLast: 5 },
  });
});

test('a malformed or out-of-range retention setting is a usage error naming the option', () => {
  for (const [argv, message] of [
    [['--retain-for', '30 days'], /--retain-for must be a duration from 1s to 36500d/],
    [['--retain-for', '0s'], /--retain-for must be a duration/],
    [['--retain-for', '36501d'], /--retain-for must be a duration/],
    [['--retain-last', 'many'], /--retain-last must be an integer from 0 to 1000000000/],
  ] as const) {
    assert.throws(
      () => serveRetention(parse([...argv]), 'serve'),
      (error: unknown) => error instanceof UsageError && message.test(error.message),
    );
  }
});
