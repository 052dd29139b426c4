/**
 * Conformance cases for the read-only insights (RunInsights): a session's runs listed in creation order, and
 * listSessions: the sessions that hold runs with their run counts by status and last activity,
 * in byte order of the session id on both backends (so a cursor means the same on each), paged after a session id,
 * one session only for a caller's own view, and bounded pages. The cases share the database with the rest of the
 * suite, so each names its sessions under a fresh prefix and starts its pages at that prefix.
 */
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunStatus, type RunRecord, type RunStore, type SessionSummary } from '../../../src/runs/store/types.js';
import { newRun, now, rimthanCode, seedCommit, startRun } from './store-fixtures.js';

const NONE: Record<RunStatus, number> = {
  pending: 0,
  running: 0,
  interrupted: 0,
  completed: 0,
  cancelled: 0,
  failed: 0,
};

/** Ends a run in `status` (pending → cancelled or failed; running → completed). */
async function end(store: RunStore, run: RunRecord, status: RunStatus): Promise<RunRecord> {
  return store.commit({
    run_id: run.run_id,
    expected_record_revision: run.record_revision,
    patch: { status, updated_at: now() },
  });
}

/** Every session under `prefix`, read page by page of `limit` from the prefix on. */
async function sessionsUnder(store: RunStore, prefix: string, limit: number): Promise<SessionSummary[][]> {
  const pages: SessionSummary[][] = [];
  let after = prefix;
  for (;;) {
    const page = await store.listSessions({ after_session_id: after, limit });
    const mine = page.filter((s) => s.session_id.startsWith(prefix));
    if (mine.length > 0) pages.push(mine);
    const last = page.at(-1);
    if (mine.length < page.length || last === undefined || page.length < limit) return pages;
    after = last.session_id;
  }
}

/** Registers the cases inside the caller's describe block. */
export function describeInsightsCases(store: () => RunStore): void {
  test('runs are listed per session in creation order and paged with after_seq', async () => {
    const session = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await store().createRun(newRun(session))).run_id);
      await store().createRun(newRun(randomUUID()));
    }
    const seen: string[] = [];
    let after_seq: number | undefined;
    for (;;) {
      const page = await store().listRuns(session, { limit: 2, ...(after_seq === undefined ? {} : { after_seq }) });
      seen.push(...page.map((r) => r.run_id));
      const last = page.at(-1);
      if (last === undefined) break;
      after_seq = last.created_seq;
    }
    assert.deepEqual(seen, ids);
  });

  test('listSessions counts each session’s runs by status, with its last activity, in byte order', async () => {
    const s = store();
    const prefix = `sessions-${randomUUID()}-`;
    // Byte order: '-' < 'B' < 'Z-' < 'Z_' < 'a' < '~'. A locale collation would put 'a' before 'B' or skip '-'.
    const names = ['a', 'Z_', '~', 'B', '-', 'Z-'].map((n) => `${prefix}${n}`);
    const latest = new Map<string, string>();
    const remember = (run: RunRecord): void => {
      const seen = latest.get(run.session_id);
      if (seen === undefined || run.updated_at > seen) latest.set(run.session_id, run.updated_at);
    };
    for (const name of names) remember(await s.createRun(newRun(name)));
    const [a, zUnderscore] = names as [string, string];
    remember(await startRun(s, a));
    remember(await end(s, await startRun(s, a), RunStatus.Completed));
    remember(await end(s, await s.createRun(newRun(a)), RunStatus.Cancelled));
    remember(await end(s, await s.createRun(newRun(zUnderscore)), RunStatus.Failed));

    const [all] = await sessionsUnder(s, prefix, 100);
    assert.deepEqual(
      all?.map((x) => x.session_id),
      [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
    );
    const byId = new Map(all?.map((x) => [x.session_id, x]));
    assert.deepEqual(byId.get(a), {
      session_id: a,
      runs: 4,
      by_status: { ...NONE, pending: 1, running: 1, completed: 1, cancelled: 1 },
      last_activity: latest.get(a),
    });
    assert.deepEqual(byId.get(zUnderscore)?.by_status, { ...NONE, pending: 1, failed: 1 });
    for (const name of names) {
      const summary = byId.get(name);
      assert.equal(summary?.last_activity, latest.get(name), name);
      assert.equal(
        Object.values(summary?.by_status ?? {}).reduce((x, y) => x + y, 0),
        summary?.runs,
        'the counts add up to the runs',
      );
    }
  });

  test('listSessions pages after a session id: every session once, in order, never more than the limit', async () => {
    const s = store();
    const prefix = `paged-${randomUUID()}-`;
    const names = Array.from({ length: 7 }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
    await Promise.all(names.map((name) => s.createRun(newRun(name))));
    const pages = await sessionsUnder(s, prefix, 3);
    assert.deepEqual(
      pages.map((p) => p.length),
      [3, 3, 1],
    );
    assert.deepEqual(
      pages.flat().map((x) => x.session_id),
      names,
    );
    const rest = await s.listSessions({ after_session_id: names[4] as string, limit: 100 });
    assert.deepEqual(
      rest.slice(0, 2).map((x) => x.session_id),
      names.slice(5),
    );
  });

  test('listSessions of one session: its own summary, nothing for another or after it', async () => {
    const s = store();
    const session = `one-${randomUUID()}`;
    const first = await s.createRun(newRun(session));
    const running = await s.commit(seedCommit(first));
    const [own, ...more] = await s.listSessions({ session_id: session, limit: 1 });
    assert.equal(more.length, 0);
    assert.deepEqual(own, {
      session_id: session,
      runs: 1,
      by_status: { ...NONE, running: 1 },
      last_activity: running.updated_at,
    });
    assert.deepEqual(await s.listSessions({ session_id: `one-${randomUUID()}`, limit: 10 }), []);
    assert.deepEqual(await s.listSessions({ session_id: session, after_session_id: session, limit: 10 }), []);
    assert.equal((await s.listSessions({ session_id: session, after_session_id: 'one-', limit: 10 })).length, 1);
    const later = await end(s, running, RunStatus.Completed);
    const [moved] = await s.listSessions({ session_id: session, limit: 1 });
    assert.deepEqual(moved?.by_status, { ...NONE, completed: 1 }, 'a commit moves the counts');
    assert.equal(moved?.last_activity, later.updated_at);
  });

  test('listSessions refuses an unbounded or malformed page', async () => {
    const s = store();
    for (const query of [
      { limit: 0 },
      { limit: 101 },
      { limit: 1.5 },
      { limit: 10, after_session_id: '' },
      { limit: 10, after_session_id: 'x'.repeat(257) },
      { limit: 10, session_id: '' },
    ]) {
      await assert.rejects(s.listSessions(query), rimthanCode('invalid_arguments'), JSON.stringify(query));
    }
    assert.ok((await s.listSessions({ limit: 100 })).length <= 100);
  });
}
