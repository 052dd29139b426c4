/**
 * The one path every tool call takes: arguments against the input schema → the profile's handler → the result against
 * the output schema → `structuredContent` plus one text block holding the canonical JSON.
 *
 * Expected refusals (bad arguments, a RimthanError from an engine, an `{ok: false}` outcome) become results with
 * `isError: true` so a model can correct itself. A result that breaks its own output schema, or any other exception, is
 * our bug: it becomes a JSON-RPC internal error, never "invalid params", and nothing of the failure reaches the wire.
 *
 * A multi-round handler may instead ask the person a question (an `input_required` result), and a task-backed one may
 * answer with a task (`resultType: "task"`, MCP 2026-07-28 Tasks); server.ts picks those handlers per request.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { canonicalJson, isJsonObject, isRimthanError } from '../../core/index.js';
import type { ErrorCode, JsonObject, JsonValue, SchemaIssue } from '../../core/index.js';
import type { CompiledToolContract } from './tool-contract.js';
import { internalFault } from './wire.js';

/** The error half of a tool outcome: a stable code and a message safe to show (no participant data). */
export interface ToolFailure {
  readonly code: ErrorCode;
  readonly message: string;
  /** A closed word narrowing the code (e.g. a guided protocol error's reason), when the engine gives one. */
  readonly reason?: string;
}

/**
 * What a profile's handler returns for an expected outcome (it may also throw a RimthanError). The value is all a
 * model sees (hosts hand it the JSON of `structuredContent`), so everything its next call needs is in it.
 */
export type ToolOutcome =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: ToolFailure };

export type ToolHandler = (args: JsonObject) => Promise<ToolOutcome>;

/** A question for the person, asked as a form in a multi-round call (MCP 2026-07-28 `input_required`). */
export interface ToolAsk {
  readonly message: string;
  /** The form: a flat closed object schema (core/flat-form.ts), as elicitation's `requestedSchema`. */
  readonly requestedSchema: JsonObject;
  /** Signed state the client echoes back with the person's answer (core/request-state.ts). */
  readonly requestState: string;
}

/**
 * What a multi-round or task-backed handler may return: an outcome, a question to ask before the call can finish, or
 * a task (the Tasks extension's `Task` fields: taskId, status, createdAt, lastUpdatedAt, ttlMs, ...) the call became.
 */
export type ToolAnswer =
  ToolOutcome | { readonly ok: 'ask'; readonly ask: ToolAsk } | { readonly ok: 'task'; readonly task: JsonObject };

/** A tools/call answered with a task (MCP 2026-07-28 Tasks extension `CreateTaskResult`). */
export type CreateTaskResult = JsonObject & { readonly resultType: 'task' };

/** The key of the one form an asked call carries in `inputRequests` (and its answer in `inputResponses`). */
export const ASK_INPUT_KEY = 'answer';

/** Called with an unexpected fault so the host process can report it; the client only sees "internal error". */
export type FaultReporter = (tool: string, error: unknown) => void;

/**
 * Told how each call ended: `ok`, `tool_error` (with the error's code) or `internal_error`, and how long it took.
 * For metrics: it never sees arguments, results or the caller.
 */
export type ToolCallObserver = (
  tool: string,
  status: 'ok' | 'tool_error' | 'internal_error',
  code: string | undefined,
  seconds: number,
) => void;

export interface ToolCallOptions {
  /** Upper bound on the serialized size of the arguments (the HTTP body cap also applies there). */
  readonly maxArgumentBytes: number;
  readonly onFault?: FaultReporter;
  readonly observe?: ToolCallObserver;
}

/** The code of the tool error for arguments that break the input schema. */
export const INVALID_ARGUMENTS = 'invalid_arguments';

/** Keyword and schema path only: validator messages carry instance values, which may be participant data. */
export function schemaIssueText(issues: readonly SchemaIssue[]): string {
  const first = issues[0];
  return first === undefined ? 'schema violation' : `${first.keyword} at ${first.schemaPath}`;
}

/** Builds a tool-error result. `structuredContent` is set only when the tool's output schema admits the error shape. */
export function toolErrorResult(tool: CompiledToolContract, failure: ToolFailure): CallToolResult {
  const error: JsonObject = { code: failure.code, message: failure.message };
  if (failure.reason !== undefined) error['reason'] = failure.reason;
  const body: JsonObject = { error };
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: canonicalJson(body) }] };
  if (tool.checkOutput(body).ok) result.structuredContent = body;
  return result;
}

function askResult(ask: ToolAsk): InputRequiredResult {
  const form = inputRequired.elicit({
    message: ask.message,
    requestedSchema: ask.requestedSchema as Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  });
  return inputRequired({ inputRequests: { [ASK_INPUT_KEY]: form }, requestState: ask.requestState });
}

function successResult(tool: CompiledToolContract, value: JsonValue, onFault?: FaultReporter): CallToolResult {
  if (!isJsonObject(value)) {
    onFault?.(tool.name, new TypeError('tool result is not a JSON object'));
    throw internalFault();
  }
  const check = tool.checkOutput(value);
  if (!check.ok) {
    onFault?.(tool.name, new TypeError(`tool result breaks its output schema (${schemaIssueText(check.issues)})`));
    throw internalFault();
  }
  let text: string;
  try {
    text = canonicalJson(value);
  } catch (error) {
    onFault?.(tool.name, error);
    throw internalFault();
  }
  return { content: [{ type: 'text', text }], structuredContent: value };
}

/** The safe parts of an engine error: code, message and (when it is a closed word) its reason. */
function failureOf(error: { code: ErrorCode; message: string }): ToolFailure {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(reason)
    ? { code: error.code, message: error.message, reason }
    : { code: error.code, message: error.message };
}

function argumentsTooLarge(args: unknown, maxBytes: number): boolean {
  const text = JSON.stringify(args);
  return text === undefined || Buffer.byteLength(text, 'utf8') > maxBytes;
}

/** The error code of a tool-error result built by {@link toolErrorResult}. */
function errorCodeOf(result: CallToolResult): string | undefined {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const code = (structured?.['error'] as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  const first = result.content[0];
  if (first?.type !== 'text') return undefined;
  return /^\{"error":\{"code":"([a-z][a-z0-9_]{0,63})"/.exec(first.text)?.[1];
}

/** Runs one call through validation, the handler and output validation; see the module comment for the error rules. */
export async function runToolCall(
  tool: CompiledToolContract,
  rawArgs: unknown,
  handler: ToolHandler,
  options: ToolCallOptions,
): Promise<CallToolResult>;
/**
 * The same for a multi-round or task-backed handler: a question it asks comes back as an `input_required` result, a
 * task it became as a `resultType: "task"` result.
 */
export async function runToolCall(
  tool: CompiledToolContract,
  rawArgs: unknown,
  handler: (args: JsonObject) => Promise<ToolAnswer>,
  options: ToolCallOptions,
): Promise<CallToolResult | InputRequiredResult | CreateTaskResult>;
export async function runToolCall(
  tool: CompiledToolContract,
  rawArgs: unknown,
  handler: (args: JsonObject) => Promise<ToolAnswer>,
  options: ToolCallOptions,
): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
  const observe = options.observe;
  if (observe === undefined) return executeToolCall(tool, rawArgs, handler, options);
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  try {
    const result = await executeToolCall(tool, rawArgs, handler, options);
    if ('resultType' in result) {
      // Asked: the call ends on the round that answers. Became a task: the call itself succeeded.
      if (result.resultType === 'task') observe(tool.name, 'ok', undefined, seconds());
      return result;
    }
    if (result.isError === true) observe(tool.name, 'tool_error', errorCodeOf(result), seconds());
    else observe(tool.name, 'ok', undefined, seconds());
    return result;
  } catch (error) {
    observe(tool.name, 'internal_error', undefined, seconds());
    throw error;
  }
}

async function executeToolCall(
  tool: CompiledToolContract,
  rawArgs: unknown,
  handler: (args: JsonObject) => Promise<ToolAnswer>,
  options: ToolCallOptions,
): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
  const args = rawArgs === undefined ? {} : rawArgs;
  if (argumentsTooLarge(args, options.maxArgumentBytes)) {
    return toolErrorResult(tool, {
      code: INVALID_ARGUMENTS,
      message: `arguments exceed ${options.maxArgumentBytes} bytes`,
    });
  }
  const check = tool.checkInput(args);
  if (!check.ok || !isJsonObject(args)) {
    const detail = check.ok ? 'not an object' : schemaIssueText(check.issues);
    return toolErrorResult(tool, {
      code: INVALID_ARGUMENTS,
      message: `arguments do not match the input schema (${detail})`,
    });
  }
  let outcome: ToolAnswer;
  try {
    outcome = await handler(args);
  } catch (error) {
    if (isRimthanError(error)) return toolErrorResult(tool, failureOf(error));
    options.onFault?.(tool.name, error);
    throw internalFault();
  }
  if (outcome.ok === 'ask') return askResult(outcome.ask);
  if (outcome.ok === 'task') return { ...outcome.task, resultType: 'task' };
  if (!outcome.ok) return toolErrorResult(tool, outcome.error);
  return successResult(tool, outcome.value, options.onFault);
}
