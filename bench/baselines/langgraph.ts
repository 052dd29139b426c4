/**
 * The LangGraph baseline for durable step overhead: a StateGraph of N sequential trivial vertices checkpointed by
 * `SqliteSaver` (@langchain/langgraph-checkpoint-sqlite) into a file, exactly as its documentation sets it up. The
 * saver's own durability settings are read back (not assumed) so the report can state them next to Rimthan's.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

const State = Annotation.Root({
  count: Annotation<number>({ reducer: (_prev: number, next: number) => next, default: () => 0 }),
});
type ChainState = typeof State.State;

/** LangGraph 1.x checkpoint timing: "sync" persists each step before the next starts; "async" (default) overlaps. */
export type LangGraphDurability = 'sync' | 'async';

/** The subset of the builder used here; node names are built in a loop, which the generic builder types cannot follow. */
interface LooseBuilder {
  addNode(name: string, fn: (state: ChainState) => Partial<ChainState>): LooseBuilder;
  addEdge(from: string, to: string): LooseBuilder;
  compile(options: { checkpointer: SqliteSaver }): {
    invoke(
      input: ChainState,
      config: { configurable: { thread_id: string }; durability: LangGraphDurability },
    ): Promise<ChainState>;
  };
}

export interface LangGraphChain {
  /** Runs the whole chain once on a fresh thread; resolves with the final count (= number of vertices). */
  runOnce(threadId: string, durability: LangGraphDurability): Promise<number>;
  /** The saver connection's `PRAGMA journal_mode` and `PRAGMA synchronous` (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA). */
  durability(): { journalMode: string; synchronous: number };
  /** Forces the saver connection to a `synchronous` level (used only when its default differs from Rimthan's). */
  setSynchronous(level: 'FULL' | 'NORMAL'): void;
  /** Calls of the saver's `put` and `putWrites` so far (each is one SQLite transaction). */
  writes(): number;
  close(): void;
}

/** Builds the N-vertex chain START → v0 → … → v(N-1) → END over a SqliteSaver on `dbPath`. */
export function createLangGraphChain(dbPath: string, vertices: number): LangGraphChain {
  const saver = SqliteSaver.fromConnString(dbPath);
  let writes = 0;
  const put = saver.put.bind(saver);
  const putWrites = saver.putWrites.bind(saver);
  saver.put = (...args) => {
    writes++;
    return put(...args);
  };
  saver.putWrites = (...args) => {
    writes++;
    return putWrites(...args);
  };
  const builder = new StateGraph(State) as unknown as LooseBuilder;
  for (let i = 0; i < vertices; i++) builder.addNode(`v${i}`, (s) => ({ count: s.count + 1 }));
  builder.addEdge(START, 'v0');
  for (let i = 1; i < vertices; i++) builder.addEdge(`v${i - 1}`, `v${i}`);
  builder.addEdge(`v${vertices - 1}`, END);
  const app = builder.compile({ checkpointer: saver });
  return {
    async runOnce(threadId, durability) {
      const out = await app.invoke({ count: 0 }, { configurable: { thread_id: threadId }, durability });
      return out.count;
    },
    durability() {
      return {
        journalMode: String(saver.db.pragma('journal_mode', { simple: true })),
        synchronous: Number(saver.db.pragma('synchronous', { simple: true })),
      };
    },
    setSynchronous(level) {
      saver.db.pragma(`synchronous = ${level}`);
    },
    writes: () => writes,
    close() {
      saver.db.close();
    },
  };
}
