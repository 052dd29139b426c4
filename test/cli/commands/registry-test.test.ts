import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { captureIo } from '../support.js';
import { DESK, edit, RESEARCH_SOURCE, withResearchCopy } from '../../routes/support.js';

describe('rimthan registry test', () => {
  test('prints each scenario and the coverage table; exit 0 at --min-coverage 100', async () => {
    const io = captureIo(RESEARCH_SOURCE);
    const code = await runCli(['registry', 'test', '.', '--min-coverage', '100'], io);
    assert.equal(code, 0, io.stderr.join('\n'));
    const out = io.stdout.join('\n');
    assert.match(out, /^ok {4}scenarios\/research-decision\/desk-research\.yaml {2}Desk research/m);
    assert.match(out, /^research-decision@1\.3\.0 +2\/2 +7\/7 +2\/2 +4\/4 +4\/4 +4\/4 +100%$/m);
    assert.match(out, /2 scenarios: 2 passed, 0 failed \(.+\); every workflow reaches 100%$/);
  });

  test('--json prints the report as one JSON document', async () => {
    const io = captureIo(RESEARCH_SOURCE);
    assert.equal(await runCli(['registry', 'test', '.', '--json', '--workflow', 'research-decision'], io), 0);
    const report = JSON.parse(io.stdout.join('')) as { ok: boolean; coverage: { percent: number }[] };
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.coverage.map((c) => c.percent),
      [100],
    );
  });

  test('a failed scenario prints file:line: message and exits 1', async () => {
    await withResearchCopy(async (dir) => {
      const line = edit(dir, DESK, '    answer: desk-research\n', '    answer: prototype-spike\n');
      const io = captureIo(dir);
      assert.equal(await runCli(['registry', 'test', '.'], io), 1);
      assert.ok(
        io.stdout.some((l) =>
          l.includes(`${DESK}:${line + 1}: expected step desk-research, the engine is at prototype-spike`),
        ),
        io.stdout.join('\n'),
      );
      assert.deepEqual(io.stderr, ['rimthan: registry test failed in .: 1 scenario failed']);
    });
  });

  test('--min-coverage outside 0..100 is a usage error', async () => {
    const io = captureIo(RESEARCH_SOURCE);
    assert.equal(await runCli(['registry', 'test', '.', '--min-coverage', '101'], io), 2);
  });
});
