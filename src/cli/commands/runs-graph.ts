/**
 * `rimthan runs graph NAME@VERSION [--flows MODULE]`: prints a registered flow as a Mermaid flowchart (the flow's
 * shape: vertices, parallel branches and joins, conditional edges as decisions, `forEach` bounds, error routes, retry
 * policies and timeouts). It reads only the flow catalog: no store is opened.
 */
import { flowMermaid, flowShape } from '../../runs/index.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { loadCatalog } from '../runs-wiring.js';
import { RUNS_GRAPH_OPTIONS } from './runs-options.js';

/** Known flows listed in an unknown-flow error, at most. */
const LISTED = 20;

/** `runs graph NAME@VERSION`. */
export async function runsGraph(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs graph';
  const parsed = parseCommand(argv, RUNS_GRAPH_OPTIONS, topic);
  const [wanted = ''] = positionals(parsed, 1, 'one flow: rimthan runs graph NAME@VERSION', topic);
  const at = wanted.lastIndexOf('@');
  if (at <= 0 || at === wanted.length - 1 || wanted.length > 200) {
    throw new UsageError('the flow is named NAME@VERSION, e.g. release_notes@v1', topic);
  }
  const catalog = await loadCatalog(stringOption(parsed, 'flows'), io.cwd);
  const definition = catalog.resolve(wanted.slice(0, at), wanted.slice(at + 1));
  if (definition === undefined) {
    const known = catalog.list().map((d) => `${d.name}@${d.version}`);
    const shown = known.slice(0, LISTED).join(', ') + (known.length > LISTED ? `, … (${known.length} in all)` : '');
    throw new CommandFailed(
      'not_found',
      `no flow ${wanted} in the catalog; known flows: ${known.length === 0 ? 'none' : shown}`,
    );
  }
  io.out(flowMermaid(flowShape(definition)).trimEnd());
}
