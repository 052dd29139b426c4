/**
 * PostgreSQL parts `steps`, `closed` and `starts`: Rimthan, DBOS and LangGraph (PostgresSaver) on the same server in
 * the same run, each in its own process, in interleaved rounds (the order rotates every round; ratios are the median
 * of per-round ratios).
 *
 * - steps: one workflow at a time, wall time from start to durable completion ÷ PG_STEPS.
 * - closed: 64 concurrent clients, each starting a workflow and waiting for its completion, then the next; completed
 *   workflows per second over a window.
 * - starts: 64 concurrent starters in an open loop; durable start acknowledgements per second (the executions go on in
 *   the background and are drained, untimed, after the window).
 */
import { fmt, higherText, lowerText } from '../format.js';
import { median, medianRatio, quantile, rounds } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import type { Contender } from './contender.js';

export const CLIENTS = 64;

export interface Contenders {
  readonly rimthan: Contender;
  readonly dbos: Contender;
  readonly langgraph: Contender;
}

const spread = (xs: readonly number[], unit = ''): string =>
  `${fmt(quantile(xs, 0.1))}–${fmt(quantile(xs, 0.9))}${unit}`;

/** Part steps: sequential ms per step. */
export async function stepsFigures(ctx: SuiteContext, c: Contenders): Promise<Figure[]> {
  const runs = ctx.long ? 10 : 5;
  const count = ctx.long ? 9 : 5;
  const once = (who: Contender) => async (): Promise<number> => {
    await who.call({ op: 'sequential', runs: 1 }); // untimed: absorbs what the previous contender left behind
    return median((await who.call({ op: 'sequential', runs })).msPerStep ?? []);
  };
  ctx.progress(`postgres/steps: ${count} rounds × ${runs} sequential workflows per engine`);
  const r = await rounds({ rim: once(c.rimthan), dbos: once(c.dbos), lg: once(c.langgraph) }, count, (i) =>
    ctx.progress(`postgres/steps: round ${i + 1}/${count}`),
  );
  const vsDbos = medianRatio(r.dbos, r.rim);
  const vsLg = medianRatio(r.lg, r.rim);
  const ms = (value: number) => ({ value, unit: 'ms/step' });
  return [
    {
      name: `time per step, ${10}-step workflow, one at a time (PostgreSQL, synchronous_commit=on)`,
      rimthan: ms(median(r.rim)),
      baseline: { label: 'DBOS 5, same server', quantity: ms(median(r.dbos)) },
      ratio: { value: vsDbos, text: lowerText(vsDbos) },
      aim: { text: 'Rimthan ≤ DBOS ÷ 2', met: vsDbos >= 2 },
      note: `Rimthan p10–p90 ${spread(r.rim, ' ms')}; DBOS ${spread(r.dbos, ' ms')}`,
    },
    {
      name: '… against LangGraph PostgresSaver (durability "sync")',
      rimthan: ms(median(r.rim)),
      baseline: { label: 'LangGraph PostgresSaver, same server', quantity: ms(median(r.lg)) },
      ratio: { value: vsLg, text: lowerText(vsLg) },
      note: `LangGraph p10–p90 ${spread(r.lg, ' ms')}`,
    },
  ];
}

/** Part closed: completed workflows/s with CLIENTS concurrent clients. */
export async function closedFigures(ctx: SuiteContext, c: Contenders): Promise<Figure[]> {
  const ms = ctx.long ? 4000 : 1500;
  const count = ctx.long ? 5 : 3;
  const once = (who: Contender) => async (): Promise<number> =>
    (await who.call({ op: 'closed', clients: CLIENTS, ms })).perSecond ?? 0;
  for (const who of [c.rimthan, c.dbos, c.langgraph]) await who.call({ op: 'closed', clients: CLIENTS, ms: 300 });
  ctx.progress(`postgres/closed: ${count} rounds × ${fmt(ms / 1000)} s windows, ${CLIENTS} clients per engine`);
  const r = await rounds({ rim: once(c.rimthan), dbos: once(c.dbos), lg: once(c.langgraph) }, count, (i) =>
    ctx.progress(`postgres/closed: round ${i + 1}/${count}`),
  );
  const vsDbos = medianRatio(r.rim, r.dbos);
  const vsLg = medianRatio(r.rim, r.lg);
  const perSec = (value: number) => ({ value, unit: 'workflows/s' });
  return [
    {
      name: `completed workflows/s, ${CLIENTS} concurrent clients (closed loop)`,
      rimthan: perSec(median(r.rim)),
      baseline: { label: 'DBOS 5, same server', quantity: perSec(median(r.dbos)) },
      ratio: { value: vsDbos, text: higherText(vsDbos) },
      aim: { text: '≥ 2× DBOS', met: vsDbos >= 2 },
      note: `per-window Rimthan ${spread(r.rim)}, DBOS ${spread(r.dbos)}`,
    },
    {
      name: '… against LangGraph PostgresSaver',
      rimthan: perSec(median(r.rim)),
      baseline: { label: 'LangGraph PostgresSaver, same server', quantity: perSec(median(r.lg)) },
      ratio: { value: vsLg, text: higherText(vsLg) },
      note: `per-window LangGraph ${spread(r.lg)}`,
    },
  ];
}

/** Part starts: open-loop durable start acknowledgements/s (LangGraph has no start acknowledgement to compare). */
export async function startsFigures(ctx: SuiteContext, c: Contenders): Promise<Figure[]> {
  const ms = ctx.long ? 3000 : 1000;
  const count = ctx.long ? 5 : 3;
  const once = (who: Contender) => async (): Promise<number> =>
    (await who.call({ op: 'starts', clients: CLIENTS, ms })).perSecond ?? 0;
  // Untimed, as in the closed part: every engine prepares its statements and warms its start path before round 1.
  for (const who of [c.rimthan, c.dbos]) await who.call({ op: 'starts', clients: CLIENTS, ms: 300 });
  ctx.progress(`postgres/starts: ${count} rounds × ${fmt(ms / 1000)} s windows, ${CLIENTS} starters per engine`);
  const r = await rounds({ rim: once(c.rimthan), dbos: once(c.dbos) }, count, (i) =>
    ctx.progress(`postgres/starts: round ${i + 1}/${count}`),
  );
  const ratio = medianRatio(r.rim, r.dbos);
  return [
    {
      name: `start acknowledgements/s, ${CLIENTS} concurrent starters (open loop)`,
      rimthan: { value: median(r.rim), unit: 'acks/s' },
      baseline: {
        label: 'DBOS 5 startWorkflow handle, same server',
        quantity: { value: median(r.dbos), unit: 'acks/s' },
      },
      ratio: { value: ratio, text: higherText(ratio) },
      aim: { text: '≥ 2× DBOS', met: ratio >= 2 },
      note: `per-window Rimthan ${spread(r.rim)}, DBOS ${spread(r.dbos)}; executions drained after each window`,
    },
  ];
}
