/** The benchmarks' progress counter: it ends exactly at the total it announced, and refuses to count past it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { roundCounter } from '../../bench/harness.js';

describe('bench progress', () => {
  test('reports every n-th round and the last one, ending at done = total', () => {
    const seen: string[] = [];
    const tick = roundCounter(10, (done, total) => seen.push(`${done}/${total}`), 4);
    for (let i = 0; i < 10; i++) tick();
    assert.deepEqual(seen, ['4/10', '8/10', '10/10']);
  });

  test('a round beyond the announced total throws instead of printing 11/10', () => {
    const seen: string[] = [];
    const tick = roundCounter(10, (done, total) => seen.push(`${done}/${total}`));
    for (let i = 0; i < 10; i++) tick();
    assert.throws(() => tick(), /round 11 of 10/);
    assert.ok(seen.every((s) => Number(s.split('/')[0]) <= 10));
  });
});
