import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cutHistoryPage } from '../../src/tools/history-page.js';
import { decodeListCursor, encodeListCursor } from '../../src/tools/list-cursor.js';
import type { ActivityEntry } from '../../src/runs/store/types.js';

function entry(revision: number, ordinal: number): ActivityEntry {
  return {
    run_id: 'r',
    revision,
    ordinal,
    event_id: `${revision}:${ordinal}`,
    kind: 'vertex_completed',
    run_status: 'running',
    occurred_at: '2026-01-01T00:00:00.000Z',
  };
}

/** A store's answer to (cursor, limit): entries strictly after the cursor, at most `limit`. */
function query(all: readonly ActivityEntry[], rev: number | undefined, eventId: string | undefined, limit: number) {
  const cursorIndex = eventId === undefined ? -1 : all.findIndex((e) => e.event_id === eventId);
  return all
    .filter(
      (e, i) =>
        rev === undefined || e.revision > rev || (eventId !== undefined && e.revision === rev && i > cursorIndex),
    )
    .slice(0, limit);
}

function readAll(all: readonly ActivityEntry[], limit: number): { pages: ActivityEntry[][]; read: ActivityEntry[] } {
  const pages: ActivityEntry[][] = [];
  let rev: number | undefined;
  let eventId: string | undefined;
  for (;;) {
    const page = cutHistoryPage(query(all, rev, eventId, limit + 1), limit);
    pages.push([...page.entries]);
    if (page.next === undefined) break;
    rev = page.next.revision;
    eventId = page.next.eventId;
  }
  return { pages, read: pages.flat() };
}

describe('history paging', () => {
  test('keeps the entries of one revision on one page', () => {
    const all = [entry(0, 0), entry(1, 0), entry(1, 1), entry(2, 0)];
    const { pages } = readAll(all, 2);
    assert.deepEqual(
      pages.map((p) => p.map((e) => e.event_id)),
      [['0:0'], ['1:0', '1:1'], ['2:0']],
    );
  });

  test('splits a revision larger than the page with an event cursor', () => {
    const all = [entry(0, 0), entry(1, 0), entry(1, 1), entry(1, 2), entry(1, 3), entry(1, 4), entry(2, 0)];
    const first = cutHistoryPage(query(all, 0, undefined, 3), 2);
    assert.deepEqual(first.next, { revision: 1, eventId: '1:1' });
    const { read } = readAll(all, 2);
    assert.deepEqual(read, all);
  });

  test('any history read page by page concatenates to the whole history', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (sizes, limit) => {
          const all = sizes.flatMap((n, rev) => Array.from({ length: n }, (_, i) => entry(rev, i)));
          const { pages, read } = readAll(all, limit);
          assert.deepEqual(read, all);
          for (const p of pages) assert.ok(p.length <= limit);
        },
      ),
    );
  });
});

describe('list cursor', () => {
  test('round-trips any creation sequence', () => {
    fc.assert(fc.property(fc.nat(), (seq) => assert.equal(decodeListCursor(encodeListCursor(seq)), seq)));
  });

  test('refuses cursors it did not issue', () => {
    const good = encodeListCursor(7);
    for (const bad of [
      '',
      '7',
      `${good}=`,
      `${good} `,
      good.slice(0, -1),
      Buffer.from('{"seq":7,"v":1,"x":0}').toString('base64url'),
      Buffer.from('{"v":1,"seq":7}').toString('base64url'),
      Buffer.from('{"seq":-1,"v":1}').toString('base64url'),
      Buffer.from('{"seq":1.5,"v":1}').toString('base64url'),
      Buffer.from('{"seq":7,"v":2}').toString('base64url'),
    ]) {
      assert.equal(decodeListCursor(bad), undefined, bad);
    }
  });
});
