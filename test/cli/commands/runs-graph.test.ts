/**
 * `rimthan runs graph NAME@VERSION` as an operator types it: the example flow without `--flows`, a flow of a `--flows`
 * module, an unknown flow (not_found, listing the known ones), a malformed name (usage) and `--help`.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { captureIo } from '../support.js';

const FLOWS = fileURLToPath(new URL('../../console/graph-flows.js', import.meta.url));

describe('rimthan runs graph', () => {
  test('prints the example flow as a Mermaid flowchart', async () => {
    const io = captureIo(process.cwd());
    assert.equal(await runCli(['runs', 'graph', 'release_notes@v1'], io), 0, io.stderr.join('\n'));
    const text = io.stdout.join('\n');
    assert.match(text, /^flowchart TD\n {2}%% release_notes@v1\n/);
    assert.match(text, / {2}v1 -\.-> v2\n {2}v1 -\.-> v0\n/);
  });

  test('prints a flow of a --flows module: fan-out, join, decision, error route, forEach', async () => {
    const io = captureIo(process.cwd());
    assert.equal(await runCli(['runs', 'graph', 'graph_shapes@v1', '--flows', FLOWS], io), 0, io.stderr.join('\n'));
    const text = io.stdout.join('\n');
    for (const line of [
      '  v0 --> v1',
      '  v0 --> v2',
      '  v4 ==>|"on error"| v5',
      '  v3 -.-> d3',
      '  class v6 forEach',
    ]) {
      assert.ok(text.split('\n').includes(line), `${line} is printed`);
    }
  });

  test('an unknown flow fails with not_found and the known flows', async () => {
    const io = captureIo(process.cwd());
    assert.equal(await runCli(['runs', 'graph', 'nope@v9', '--flows', FLOWS], io), 1);
    assert.equal(
      io.stderr.join('\n'),
      'rimthan: no flow nope@v9 in the catalog; known flows: graph_child@v1, graph_demo@v1, graph_shapes@v1',
    );
    assert.deepEqual(io.stdout, []);
  });

  test('a name without a version is a usage error, and --help describes the command', async () => {
    const io = captureIo(process.cwd());
    assert.equal(await runCli(['runs', 'graph', 'release_notes'], io), 2);
    assert.match(io.stderr.join('\n'), /the flow is named NAME@VERSION/);
    const help = captureIo(process.cwd());
    assert.equal(await runCli(['runs', 'graph', '--help'], help), 0);
    assert.match(help.stdout.join('\n'), /rimthan runs graph NAME@VERSION \[--flows MODULE\]/);
  });
});
