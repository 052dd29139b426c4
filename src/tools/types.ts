/**
 * The run tools' public shapes and the dependencies a bundle is built from.
 */
import type { JsonObject } from '../core/index.js';
import type { FlowCatalog, PrepareRun, SessionController } from '../runs/index.js';
import type { RunInsights, RunLedger } from '../runs/store/index.js';
import type { FaultReporter } from './faults.js';
import type { RunToolResult } from './result.js';

/** What the tools need of the catalog: exact resolution and the full list. */
export type RunToolsCatalog = Pick<FlowCatalog, 'resolve' | 'list'>;

/** The seven tool names (the public contract; look tools up by name, not by position). */
export const RunToolName = {
  DefinitionList: 'workflow_definition_list',
  RunStart: 'workflow_run_start',
  RunGet: 'workflow_run_get',
  RunList: 'workflow_run_list',
  RunResume: 'workflow_run_resume',
  RunCancel: 'workflow_run_cancel',
  RunHistory: 'workflow_run_history',
} as const;
export type RunToolName = (typeof RunToolName)[keyof typeof RunToolName];

/** MCP-style behaviour hints; every tool states all four because the MCP defaults are pessimistic. */
export interface RunToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One framework-neutral tool: JSON arguments in, a bounded result out. Neither entry point throws. */
export interface RunTool {
  readonly name: RunToolName;
  readonly title: string;
  /** One sentence, at most 256 bytes. */
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema: JsonObject;
  readonly annotations: RunToolAnnotations;
  /** Arguments as JSON text (a model's tool call, an adapter): parsed once, strictly. */
  invoke(jsonText: string): Promise<RunToolResult>;
  /**
   * Arguments a transport already parsed: judged exactly as their RFC 8785 text would be (same refusals, same words),
   * without writing and re-parsing that text. The bundle's tools have it; a tool written by hand may leave it out,
   * and its callers then send text.
   */
  invokeParsed?(args: unknown): Promise<RunToolResult>;
}

export type { PrepareRun } from '../runs/index.js';

export interface RunToolsConfig {
  readonly sessionId: string;
  readonly catalog: RunToolsCatalog;
  readonly store: RunLedger & RunInsights;
  /** Must serve `sessionId` and provide start, startNew, history, resume and cancel. */
  readonly supervisor: SessionController;
  readonly now?: () => Date;
  /** Mints run IDs; defaults to `crypto.randomUUID`. Must return a nonzero UUID. */
  readonly newId?: () => string;
  readonly prepareRun?: PrepareRun;
  /** Told about unexpected faults (for host diagnostics); callers only ever see the mapped error. */
  readonly onFault?: FaultReporter;
}

/** What every tool handler receives: the checked configuration with defaults filled in. */
export interface ToolContext {
  readonly sessionId: string;
  readonly catalog: RunToolsCatalog;
  /** The reads the handlers make themselves (a run, a page of runs); every write goes through the supervisor. */
  readonly store: Pick<RunLedger, 'getRun'> & Pick<RunInsights, 'listRuns'>;
  readonly supervisor: SessionController;
  readonly now: () => Date;
  readonly newId: () => string;
  readonly prepareRun: PrepareRun | undefined;
  /** Maps a dependency failure to a tool error (and reports unexpected ones to the host's onFault). */
  fault(error: unknown, what: string): RunToolResult;
}

/** A tool before it is wired: its contract and a handler over decoded, schema-checked arguments. */
export interface ToolSpec {
  readonly name: RunToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema: JsonObject;
  readonly annotations: Omit<RunToolAnnotations, 'title'>;
  readonly uuidFields?: readonly string[];
  readonly maxBytes?: Readonly<Record<string, number>>;
  handle(args: JsonObject, ctx: ToolContext): Promise<RunToolResult>;
}
