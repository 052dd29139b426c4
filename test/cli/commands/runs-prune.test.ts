/**
 * `rimthan runs prune` as an operator types it, on a real SQLite store: a dry run counts and deletes nothing, a prune
 * deletes only finished runs due under its rule (per flow or every flow), a long prune reports progress on stderr, and
 * a prune without a rule is a usage error. (The store behaviour behind it is proven on both backends by the
 * conformance suite, test/runs/store/store-conformance-retention.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { RunStatus, type RunRecord } from '../../../src/runs/index.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { runOf } from '../../runs/store/store-conformance-retention.js';
import { captureIo } from '../support.js';

const OLD = '2001-01-01T00:00:00.000Z';

describe('rimthan runs prune', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-runs-prune-'));
  const storeSpec = `sqlite:${join(work, 'runs.db')}`;
  let store: SqliteRunStore;

  before(async () => {
    store = new SqliteRunStore(join(work, 'runs.db'));
    await store.open();
  });
  after(async () => {
    await store.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function prune(argv: string[]) {
    const io = captureIo(work);
    const code = await runCli(['runs', 'prune', ...argv, '--store', storeSpec], io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  }

  const alive = async (runs: readonly RunRecord[]): Promise<number> =>
    (await Promise.all(runs.map((r) => store.getRunById(r.run_id)))).filter((r) => r !== undefined).length;

  test('a dry run counts per flow and deletes nothing; a prune of one flow deletes only its due runs', async () => {
    const a = [await runOf(store, { name: 'flow_a', at: OLD }), await runOf(store, { name: 'flow_a', at: OLD })];
    const live = await runOf(store, { name: 'flow_a', at: OLD, status: RunStatus.Running });
    const b = [await runOf(store, { name: 'flow_b', at: OLD, status: RunStatus.Failed })];
    const recent = await runOf(store, { name: 'flow_a', at: new Date().toISOString() });

    const dry = await prune(['--older-than', '30d', '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.err);
    assert.deepEqual(JSON.parse(dry.out), {
      dry_run: true,
      deleted: 3,
      by_flow: { flow_a: 2, flow_b: 1 },
      inputs_deleted: 0,
    });
    assert.equal(await alive([...a, ...b]), 3, 'a dry run deletes nothing');

    const one = await prune(['--flow', 'flow_a', '--older-than', '30d']);
    assert.equal(one.code, 0, one.err);
    assert.match(one.out, /^flow_a: deleted 2 finished run\(s\)$/m);
    assert.match(one.out, /^total: deleted 2 finished run\(s\)/m);
    assert.equal(await alive(a), 0);
    assert.equal(await alive([live, recent, ...b]), 3, 'the live, the recent and the other flow are kept');

    const rest = await prune(['--keep-last', '0', '--json']);
    assert.equal(rest.code, 0, rest.err);
    assert.deepEqual(JSON.parse(rest.out).by_flow, { flow_a: 1, flow_b: 1 });
    assert.equal(await alive([live]), 1, 'a running run is never deleted');
  });

  test('a long prune goes in batches and reports its progress on stderr', async () => {
    const runs = await Promise.all(Array.from({ length: 620 }, () => runOf(store, { name: 'flow_c', at: OLD })));
    const result = await prune(['--flow', 'flow_c', '--keep-last', '10', '--json']);
    assert.equal(result.code, 0, result.err);
    assert.equal(JSON.parse(result.out).deleted, 610);
    assert.match(result.err, /rimthan: pruned 500 finished run\(s\) so far/);
    assert.equal(await alive(runs), 10);
  });

  test('a prune without a rule, or with a malformed duration, is a usage error', async () => {
    const none = await prune(['--flow', 'flow_a']);
    assert.equal(none.code, 2);
    assert.match(none.err, /--older-than DURATION or --keep-last N is required/);
    const bad = await prune(['--older-than', '30 days']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--older-than must be a duration/);
  });
});
