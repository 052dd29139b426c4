/** The shapes suites report and the runner prints: every figure is a ratio against a baseline measured in the same run. */

/** An absolute measurement with its unit (e.g. 12_345 "ops/s", 0.41 "ms/vertex", 1_830 "bytes"). */
export interface Quantity {
  readonly value: number;
  readonly unit: string;
}

/** One reported figure. */
export interface Figure {
  /** What is measured, e.g. "continue_workflow ops/s". */
  readonly name: string;
  /** Rimthan's absolute number. */
  readonly rimthan: Quantity;
  /** The same-run baseline and what it is; absent only for a figure that is a size rather than a speed. */
  readonly baseline?: { readonly label: string; readonly quantity: Quantity };
  /** The comparison, as a number and as a phrase with its direction ("5.2× lower", "63% of baseline"). */
  readonly ratio?: { readonly value: number; readonly text: string };
  /** The target and whether this run met it. */
  readonly aim?: { readonly text: string; readonly met: boolean };
  /** Short context (sample count, spread, caveats). */
  readonly note?: string;
}

export interface SuiteResult {
  readonly suite: string;
  readonly figures: readonly Figure[];
  /** Facts the reader needs to judge the figures (durability settings, sizes, versions). */
  readonly notes: readonly string[];
  /** Set when the suite could not run (a missing dependency); figures is then empty. */
  readonly skipped?: string;
  readonly durationMs: number;
}

export interface SuiteContext {
  /** `--long`: more rounds and bigger windows, for figures worth quoting. */
  readonly long: boolean;
  /** `--duration=SECONDS`: how long a soak part runs (the http suite's RSS window); undefined = the suite's default. */
  readonly durationSeconds?: number;
  /** `--baseline=REV`: the Git revision a suite comparing Rimthan with itself builds as its baseline. */
  readonly baseline?: string;
  /** `--parts=a,b`: run only these parts of a suite (undefined = all). */
  readonly parts: ReadonlySet<string> | undefined;
  /** Progress on stderr (never stdout, which carries the table). */
  progress(message: string): void;
}

export interface Suite {
  readonly name: string;
  readonly description: string;
  run(ctx: SuiteContext): Promise<Omit<SuiteResult, 'suite' | 'durationMs'>>;
}
