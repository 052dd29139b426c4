/**
 * The runs suite: (a) durable per-step overhead against LangGraph + SqliteSaver, (b) start acknowledgements/s with
 * group commit against one commit per start, (c) history page latency against history length. Temporary databases
 * live in one folder under os.tmpdir() that is removed afterwards.
 */
import { FlowCatalog, Supervisor, type SqliteRunStore } from '../../src/runs/index.js';
import { createRunTools, findRunTool, RunToolName } from '../../src/tools/index.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { withTempFolder } from '../tmp.js';
import { historyPart, type PageReader } from './runs-history.js';
import { SESSION } from './runs-runtime.js';
import { startsPart } from './runs-starts.js';
import { stepsPart } from './runs-steps.js';

/** Reads history pages through `workflow_run_history` (strict decode, session check, output schema), as a model would. */
function toolReader(store: SqliteRunStore): Promise<{ read: PageReader; label: string; close(): Promise<void> }> {
  // Not started: history never needs the worker pool, and a started supervisor would try to execute the bench runs.
  const supervisor = new Supervisor({ store, catalog: new FlowCatalog() });
  const tools = createRunTools({
    sessionId: SESSION,
    catalog: new FlowCatalog(),
    store,
    supervisor: supervisor.forSession(SESSION),
  });
  const history = findRunTool(tools, RunToolName.RunHistory);
  if (history === undefined) throw new Error('workflow_run_history is missing');
  return Promise.resolve({
    label: 'the workflow_run_history tool (JSON text in, schema-checked page out)',
    async read(runId, afterRevision) {
      const result = await history.invoke(`{"run_id":"${runId}","after_revision":${afterRevision},"limit":50}`);
      if (!result.ok) throw new Error(`workflow_run_history failed: ${result.error.code}`);
      const entries = result.value['entries'];
      return Array.isArray(entries) ? entries.length : 0;
    },
    close: () => supervisor.stop(),
  });
}

export const suite: Suite = {
  name: 'runs',
  description: 'durable step overhead vs LangGraph, start acks/s with group commit, history paging',
  async run(ctx: SuiteContext) {
    return withTempFolder('runs', async (folder) => {
      const figures: Figure[] = [];
      const notes: string[] = [];
      const parts: [string, () => Promise<{ figures: Figure[]; notes: string[] }>][] = [
        ['steps', () => stepsPart(ctx, folder)],
        ['starts', () => startsPart(ctx, folder)],
        ['history', () => historyPart(ctx, { folder, session: SESSION, reader: toolReader })],
      ];
      for (const [name, part] of parts) {
        if (ctx.parts !== undefined && !ctx.parts.has(name)) continue;
        const out = await part();
        figures.push(...out.figures);
        notes.push(...out.notes);
      }
      return { figures, notes };
    });
  },
};
