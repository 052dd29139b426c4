/**
 * `createRunTools`: the seven run tools bound to one session. Each tool decodes its arguments strictly (JSON text
 * through `invoke`, an already parsed value through `invokeParsed`, judged alike), runs its handler, and checks its own answer against its output schema before returning it (fail closed: a result that breaks
 * the published contract becomes `internal`, never a malformed success).
 */
import { randomUUID } from 'node:crypto';
import { RimthanError, SchemaCompiler } from '../core/index.js';
import { definitionListSpec } from './definition-list.js';
import { refuse, RunToolErrorCode } from './result.js';
import type { RunToolResult } from './result.js';
import { runCancelSpec } from './run-cancel.js';
import { runGetSpec } from './run-get.js';
import { runHistorySpec } from './run-history.js';
import { runListSpec } from './run-list.js';
import { runResumeSpec } from './run-resume.js';
import { runStartSpec } from './run-start.js';
import { checkParsedArguments } from './parsed-args.js';
import { compileArgumentDecoders } from './strict-args.js';
import type { DecodeResult } from './strict-args.js';
import { dependencyFault } from './faults.js';
import type { FaultReporter } from './faults.js';
import type { RunTool, RunToolsConfig, ToolContext, ToolSpec } from './types.js';

/** The tool specs in their stable bundle order (look tools up by name; the order is not the contract). */
export const RUN_TOOL_SPECS: readonly ToolSpec[] = [
  definitionListSpec,
  runStartSpec,
  runGetSpec,
  runListSpec,
  runResumeSpec,
  runCancelSpec,
  runHistorySpec,
];

function invalidConfig(message: string): RimthanError {
  return new RimthanError('invalid_config', `run tools: ${message}`);
}

function hasMethod(target: unknown, name: string): boolean {
  return (
    typeof target === 'object' && target !== null && typeof (target as Record<string, unknown>)[name] === 'function'
  );
}

/** Fails closed on a configuration the tools could not honour (see createRunTools). */
function checkConfig(config: RunToolsConfig): void {
  if (typeof config.sessionId !== 'string' || config.sessionId.trim() === '')
    throw invalidConfig('sessionId is required');
  if (!hasMethod(config.catalog, 'resolve') || !hasMethod(config.catalog, 'list'))
    throw invalidConfig('catalog is required');
  for (const method of ['putInput', 'createRun', 'getRun', 'findByIdempotencyKey', 'listRuns']) {
    if (!hasMethod(config.store, method)) throw invalidConfig('store is required');
  }
  for (const method of ['start', 'history', 'resume', 'cancel', 'startNew']) {
    if (!hasMethod(config.supervisor, method)) throw invalidConfig(`supervisor must provide ${method}`);
  }
  if (config.supervisor.sessionId !== config.sessionId) throw invalidConfig('supervisor serves a different session');
}

type BaseContext = Omit<ToolContext, 'fault'>;

/** Schemas are shared by every bundle: freeze them so no consumer can change another bundle's contract. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function bind(
  spec: ToolSpec,
  base: BaseContext,
  compiler: SchemaCompiler,
  onFault: FaultReporter | undefined,
): RunTool {
  const ctx: ToolContext = {
    ...base,
    fault(error, what) {
      const mapped = dependencyFault(error, what);
      if (!mapped.ok && mapped.error.code === RunToolErrorCode.Unavailable) onFault?.(spec.name, error);
      return mapped;
    },
  };
  const decode = compileArgumentDecoders(spec.inputSchema, compiler, {
    ...(spec.uuidFields === undefined ? {} : { uuidFields: spec.uuidFields }),
    ...(spec.maxBytes === undefined ? {} : { maxBytes: spec.maxBytes }),
  });
  const checkOutput = compiler.compileOrDefer(spec.outputSchema);
  const internal = (error: unknown): RunToolResult => {
    onFault?.(spec.name, error);
    return refuse(RunToolErrorCode.Internal, 'internal error');
  };
  /** The one path after decoding, whichever entry point decoded the arguments. */
  const run = async (decoded: DecodeResult): Promise<RunToolResult> => {
    if (!decoded.ok) return refuse(RunToolErrorCode.InvalidArguments, decoded.message);
    const result = await spec.handle(decoded.args, ctx);
    if (!result.ok) return result;
    const check = checkOutput(result.value);
    if (check.ok) return result;
    return internal(new RimthanError('internal', `result breaks the output schema of ${spec.name}`));
  };
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: deepFreeze(spec.inputSchema),
    outputSchema: deepFreeze(spec.outputSchema),
    annotations: { title: spec.title, ...spec.annotations },
    async invoke(jsonText: string): Promise<RunToolResult> {
      try {
        if (typeof jsonText !== 'string')
          return refuse(RunToolErrorCode.InvalidArguments, 'arguments must be JSON text');
        return await run(decode.fromText(jsonText));
      } catch (error) {
        return internal(error);
      }
    },
    async invokeParsed(args: unknown): Promise<RunToolResult> {
      try {
        const checked = checkParsedArguments(args);
        if (!checked.ok) return refuse(RunToolErrorCode.InvalidArguments, checked.message);
        return await run(decode.fromValue(checked.value));
      } catch (error) {
        return internal(error);
      }
    },
  };
}

/**
 * Builds the seven run tools for one session. Throws RimthanError('invalid_config') without a session ID, catalog,
 * store, or a supervisor that can start (and start new runs), resume, cancel and project history, and when the supervisor serves a
 * different session than `config.sessionId` (a bundle must never act on another session's runs).
 */
export function createRunTools(config: RunToolsConfig): RunTool[] {
  if (typeof config !== 'object' || config === null) throw invalidConfig('config is required');
  checkConfig(config);
  const base: BaseContext = {
    sessionId: config.sessionId,
    catalog: config.catalog,
    store: config.store,
    supervisor: config.supervisor,
    now: config.now ?? (() => new Date()),
    newId: config.newId ?? randomUUID,
    prepareRun: config.prepareRun,
  };
  const compiler = new SchemaCompiler();
  return RUN_TOOL_SPECS.map((spec) => bind(spec, base, compiler, config.onFault));
}

/** Finds a tool by its public name (the contract), or undefined. */
export function findRunTool(tools: readonly RunTool[], name: string): RunTool | undefined {
  return tools.find((t) => t.name === name);
}
