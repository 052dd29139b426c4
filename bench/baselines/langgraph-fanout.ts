/**
 * The LangGraph baseline for the flows suite's fan-out part: a StateGraph START → fork → eight parallel branches →
 * join → END (eight edges leave `fork`, one edge from all eight branches waits for them at `join`), each branch writing
 * its own key (a node name cannot also be a state key), checkpointed by SqliteSaver (WAL, set to synchronous=FULL) or PostgresSaver, invoked with durability
 * "sync" (each superstep's checkpoint is stored before the next superstep starts): equal durability with Rimthan.
 */
import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

/** Parallel branches of the fan-out (the same count on both sides). */
export const FANOUT_BRANCHES = 8;
/** Vertices one fan-out run completes: the fork, the branches and the join. */
export const FANOUT_VERTICES = FANOUT_BRANCHES + 2;

const last = () => Annotation<number>({ reducer: (_prev: number, next: number) => next, default: () => 0 });
const State = Annotation.Root({
  count: last(),
  sum: last(),
  ...Object.fromEntries(Array.from({ length: FANOUT_BRANCHES }, (_, i) => [`out${i}`, last()])),
});
type FanState = Record<string, number>;

interface LooseBuilder {
  addNode(name: string, fn: (state: FanState) => FanState): LooseBuilder;
  addEdge(from: string | string[], to: string): LooseBuilder;
  compile(options: { checkpointer: BaseCheckpointSaver }): {
    invoke(input: FanState, config: { configurable: { thread_id: string }; durability: 'sync' }): Promise<FanState>;
  };
}

export interface LangGraphFanout {
  /** Runs the fan-out once on a fresh thread; resolves with the join's sum (checked by the caller). */
  runOnce(threadId: string): Promise<number>;
  close(): Promise<void>;
}

function build(saver: BaseCheckpointSaver, close: () => Promise<void>): LangGraphFanout {
  const builder = new StateGraph(State) as unknown as LooseBuilder;
  const branches = Array.from({ length: FANOUT_BRANCHES }, (_, i) => `b${i}`);
  builder.addNode('fork', (s) => ({ count: (s['count'] ?? 0) + 1 }));
  branches.forEach((b, i) => builder.addNode(b, (s) => ({ [`out${i}`]: (s['count'] ?? 0) + i })));
  builder.addNode('join', (s) => ({ sum: branches.reduce((t, _b, i) => t + (s[`out${i}`] ?? 0), 0) }));
  builder.addEdge(START, 'fork');
  for (const b of branches) builder.addEdge('fork', b);
  builder.addEdge(branches, 'join');
  builder.addEdge('join', END);
  const app = builder.compile({ checkpointer: saver });
  return {
    async runOnce(threadId) {
      const out = await app.invoke({ count: 0 }, { configurable: { thread_id: threadId }, durability: 'sync' });
      return out['sum'] ?? -1;
    },
    close,
  };
}

/**
 * On a SqliteSaver file. `setFull` sets its connection to synchronous=FULL (Rimthan's setting; the saver's default is
 * NORMAL) and answers the level read back; call it after a first run (the saver sets WAL up lazily).
 */
export function langGraphFanoutSqlite(dbPath: string): LangGraphFanout & { setFull(): number } {
  const saver = SqliteSaver.fromConnString(dbPath);
  const fanout = build(saver, () => {
    saver.db.close();
    return Promise.resolve();
  });
  return {
    ...fanout,
    setFull() {
      saver.db.pragma('synchronous = FULL');
      return Number(saver.db.pragma('synchronous', { simple: true }));
    },
  };
}

/** On a PostgresSaver in its own schema of `url`'s database. */
export async function langGraphFanoutPostgres(url: string, schema: string): Promise<LangGraphFanout> {
  const saver = PostgresSaver.fromConnString(url, { schema });
  await saver.setup();
  return build(saver, () => saver.end());
}

/** The sum the join computes for input count 0 (fork makes count 1; branch i writes 1 + i). */
export const FANOUT_SUM = Array.from({ length: FANOUT_BRANCHES }, (_, i) => 1 + i).reduce((a, b) => a + b, 0);
