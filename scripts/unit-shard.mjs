// One shard of the unit loop (started by `run-tests.mjs --unit`): imports the compiled unit test files given as
// arguments into this one process, so that their tests run with Node's test runner without paying for a process and
// a fresh module graph per file. A file that fails to load is reported as a failing test named after it.
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

for (const file of process.argv.slice(2)) {
  try {
    await import(pathToFileURL(resolve(file)).href);
  } catch (error) {
    test(`${file} loads`, () => {
      throw error;
    });
  }
}
