/**
 * Timing primitives for the benchmarks. The machine is shared and noisy, so every comparison is interleaved (A, B, A,
 * B, ...) and summarised by medians: a burst of noise hits both sides of a round, and the median ignores outlier rounds.
 */

/** Nanoseconds from a monotonic clock. */
export function nowNs(): bigint {
  return process.hrtime.bigint();
}

/** Milliseconds elapsed since `start` (a `nowNs()` value). */
export function elapsedMs(start: bigint): number {
  return Number(nowNs() - start) / 1e6;
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] as number;
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] as number) + hi) / 2;
}

/** The q-quantile (0..1, nearest rank) of a non-empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

/** An operation under test; a returned promise is awaited, a plain value is not (no microtask for sync code). */
export type Operation = () => unknown;

async function runOnce(op: Operation): Promise<void> {
  const result = op();
  if (result instanceof Promise) await result;
}

/** Runs `op` `count` times back to back and returns the elapsed nanoseconds. */
async function timeBatch(op: Operation, count: number): Promise<number> {
  const start = nowNs();
  for (let i = 0; i < count; i++) await runOnce(op);
  return Number(nowNs() - start);
}

/** How many calls of `op` fill about `targetMs`; at least 1. Also serves as warm-up. */
export async function calibrate(op: Operation, targetMs: number, warmupMs = 100): Promise<number> {
  const warmEnd = nowNs() + BigInt(Math.round(warmupMs * 1e6));
  let calls = 0;
  const start = nowNs();
  while (nowNs() < warmEnd || calls < 3) {
    await runOnce(op);
    calls++;
  }
  const perCallNs = Number(nowNs() - start) / calls;
  return Math.max(1, Math.round((targetMs * 1e6) / perCallNs));
}

/** Summary of repeated samples of one operation. */
export interface Stats {
  /** Median nanoseconds per operation over the samples. */
  readonly nsPerOp: number;
  readonly opsPerSec: number;
  /** Spread of the per-sample ns/op: 10th and 90th percentiles. */
  readonly p10NsPerOp: number;
  readonly p90NsPerOp: number;
  readonly samples: number;
  readonly callsPerSample: number;
}

function summarise(samplesNsPerOp: readonly number[], callsPerSample: number): Stats {
  const nsPerOp = median(samplesNsPerOp);
  return {
    nsPerOp,
    opsPerSec: 1e9 / nsPerOp,
    p10NsPerOp: quantile(samplesNsPerOp, 0.1),
    p90NsPerOp: quantile(samplesNsPerOp, 0.9),
    samples: samplesNsPerOp.length,
    callsPerSample,
  };
}

export interface MeasureOptions {
  /** Number of timed samples (default 9). */
  readonly samples?: number;
  /** Wall time one sample aims for (default 40 ms). */
  readonly sampleMs?: number;
  /** Called after each sample (progress). */
  readonly onSample?: () => void;
}

/** Warm up, then time `samples` batches of `op`; the figure is the median batch. */
export async function measure(op: Operation, options: MeasureOptions = {}): Promise<Stats> {
  const samples = options.samples ?? 9;
  const calls = await calibrate(op, options.sampleMs ?? 40);
  const perOp: number[] = [];
  for (let s = 0; s < samples; s++) {
    perOp.push((await timeBatch(op, calls)) / calls);
    options.onSample?.();
  }
  return summarise(perOp, calls);
}

/**
 * A progress counter for `total` rounds announced up front: each call counts one finished round and reports
 * `done/total` every `every` rounds and at the last one. Counting past `total` throws, so a total that forgets a
 * comparison fails the benchmark instead of printing `49/42 rounds`.
 */
export function roundCounter(total: number, report: (done: number, total: number) => void, every = 1): () => void {
  let done = 0;
  return () => {
    done++;
    if (done > total) throw new Error(`progress counted round ${done} of ${total}: the announced total is wrong`);
    if (done % every === 0 || done === total) report(done, total);
  };
}

/** Result of an interleaved A/B comparison. */
export interface Comparison {
  readonly a: Stats;
  readonly b: Stats;
  /** Median over rounds of (A ns/op ÷ B ns/op): below 1 means A is faster. */
  readonly timeRatio: number;
}

/**
 * Times `a` and `b` in alternating rounds (the order flips every round) so drift and noise bursts hit both; the ratio
 * is the median of per-round ratios, which is robust to a noisy round.
 */
export async function compare(a: Operation, b: Operation, options: MeasureOptions = {}): Promise<Comparison> {
  const rounds = options.samples ?? 9;
  const sampleMs = options.sampleMs ?? 40;
  const callsA = await calibrate(a, sampleMs);
  const callsB = await calibrate(b, sampleMs);
  const perA: number[] = [];
  const perB: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let ta: number;
    let tb: number;
    if (r % 2 === 0) {
      ta = (await timeBatch(a, callsA)) / callsA;
      tb = (await timeBatch(b, callsB)) / callsB;
    } else {
      tb = (await timeBatch(b, callsB)) / callsB;
      ta = (await timeBatch(a, callsA)) / callsA;
    }
    perA.push(ta);
    perB.push(tb);
    ratios.push(ta / tb);
    options.onSample?.();
  }
  return { a: summarise(perA, callsA), b: summarise(perB, callsB), timeRatio: median(ratios) };
}

/**
 * Interleaved rounds for coarse operations that report their own figure (one whole run, a throughput window, ...):
 * each round calls every contender once, rotating the order, and collects the numbers they return, per contender.
 */
export async function rounds<K extends string>(
  contenders: Readonly<Record<K, () => Promise<number>>>,
  count: number,
  onRound?: (round: number) => void,
): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < count; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] as K;
      out[name].push(await contenders[name]());
    }
    onRound?.(r);
  }
  return out;
}

/** Per-round ratios a[i] ÷ b[i] of two series collected by `rounds`, summarised by their median. */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / (b[i] as number)));
}

/** `clients` loops calling `op` until the deadline; returns the calls that completed and the seconds taken. */
export async function clientsWindow(
  clients: number,
  ms: number,
  op: () => Promise<void>,
): Promise<{ count: number; seconds: number }> {
  let count = 0;
  const begin = nowNs();
  const deadline = begin + BigInt(Math.round(ms * 1e6));
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (nowNs() < deadline) {
        await op();
        count++;
      }
    }),
  );
  return { count, seconds: Number(nowNs() - begin) / 1e9 };
}
