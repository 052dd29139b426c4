/**
 * The LangGraph baseline on PostgreSQL: the same StateGraph chain as the SQLite baseline, checkpointed by
 * `PostgresSaver` (@langchain/langgraph-checkpoint-postgres) into its own schema, invoked with durability "sync"
 * (each step's checkpoint is stored before the next step starts), as its documentation sets it up.
 */
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { PgEngine } from '../postgres/engine.js';
import { PG_STEPS } from '../postgres/engine.js';

const State = Annotation.Root({
  count: Annotation<number>({ reducer: (_prev: number, next: number) => next, default: () => 0 }),
});
type ChainState = typeof State.State;

interface LooseBuilder {
  addNode(name: string, fn: (state: ChainState) => Partial<ChainState>): LooseBuilder;
  addEdge(from: string, to: string): LooseBuilder;
  compile(options: { checkpointer: PostgresSaver }): {
    invoke(input: ChainState, config: { configurable: { thread_id: string }; durability: 'sync' }): Promise<ChainState>;
  };
}

/** Sets up the saver's tables in `schema` and builds the chain. */
export async function openLangGraphPostgres(url: string, schema: string): Promise<PgEngine> {
  const saver = PostgresSaver.fromConnString(url, { schema });
  await saver.setup();
  const builder = new StateGraph(State) as unknown as LooseBuilder;
  for (let i = 0; i < PG_STEPS; i++) builder.addNode(`v${i}`, (s) => ({ count: s.count + 1 }));
  builder.addEdge(START, 'v0');
  for (let i = 1; i < PG_STEPS; i++) builder.addEdge(`v${i - 1}`, `v${i}`);
  builder.addEdge(`v${PG_STEPS - 1}`, END);
  const app = builder.compile({ checkpointer: saver });
  let thread = 0;
  const inFlight = new Set<Promise<unknown>>();
  const run = async (): Promise<void> => {
    const out = await app.invoke(
      { count: 0 },
      { configurable: { thread_id: `t-${process.pid}-${++thread}` }, durability: 'sync' },
    );
    if (out.count !== PG_STEPS) throw new Error('LangGraph chain counted wrong');
  };
  return {
    name: 'LangGraph',
    runOnce: run,
    startOnly() {
      // LangGraph has no separate start acknowledgement: invoke runs the graph; a start is acknowledged once the
      // first checkpoint is written, which invoke does not expose. Not measured (see the suite notes).
      return Promise.reject(new Error('LangGraph has no start acknowledgement'));
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      await saver.end();
    },
  };
}
