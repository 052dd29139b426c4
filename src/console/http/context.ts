/** What the API's handlers work with: the operations the console offers, wired once at start. */
import type { ConsoleReleaseStore } from '../releases/release-store.js';
import type { ScopeCache } from '../releases/release-diff.js';
import type { ConsoleRuns } from '../runs/runs-api.js';
import type { ConsoleFlows } from '../runs/run-graph-load.js';
import type { ConsoleSessions } from '../run-sessions/sessions-api.js';
import type { GuidedCall } from '../guided/guided-call.js';

export interface Workspace {
  /** What the page shows: the folder as the operator named it. */
  readonly label: string;
  readonly dir: string;
}

/** Live streams at once: in all, and per principal (a session cookie's caller or the operator). */
export class StreamLimiter {
  readonly #open = new Map<string, number>();
  #total = 0;
  constructor(
    private readonly maxTotal = 64,
    private readonly maxEach = 8,
  ) {}

  /** Takes a slot for `who`; the release function, or undefined when none is free. */
  acquire(who: string): (() => void) | undefined {
    const mine = this.#open.get(who) ?? 0;
    if (this.#total >= this.maxTotal || mine >= this.maxEach) return undefined;
    this.#open.set(who, mine + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#open.get(who) ?? 1) - 1;
      if (left === 0) this.#open.delete(who);
      else this.#open.set(who, left);
    };
  }
}

export interface ConsoleContext {
  readonly releases: ConsoleReleaseStore;
  readonly scopes: ScopeCache;
  readonly runs: ConsoleRuns;
  readonly sessions: ConsoleSessions;
  readonly guided: GuidedCall;
  readonly workspaces: readonly Workspace[];
  /** The operator's session when a request names none (`--session`). */
  readonly defaultSession: string | undefined;
  readonly maxRequestBytes: number;
  readonly streams: StreamLimiter;
  /** Between two reads of a live run stream. */
  readonly streamIntervalMs: number;
  /** The flow catalog and store the run graphs read (absent: the graph endpoint answers `unavailable`). */
  readonly flows?: ConsoleFlows;
}
