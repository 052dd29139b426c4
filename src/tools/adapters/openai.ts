/**
 * OpenAI function-calling adapter (Chat Completions `tools` shape) and a dispatcher for the model's tool calls.
 */
import { canonicalJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { RunTool } from '../types.js';

export interface OpenAiFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonObject;
    readonly strict: boolean;
  };
}

export interface OpenAiToolCall {
  readonly name: string;
  /** The JSON text the model produced. */
  readonly arguments: string;
}

/**
 * The tools as OpenAI function definitions, schemas verbatim.
 *
 * `strict` is `false` on purpose: OpenAI strict mode requires every property to be listed in `required` (optional
 * fields such as `parent_run_id`, `limit` or `reason` would have to become nullable, which our decoder rejects) and
 * allows no free-form objects (`input` and `resume` are any object the definition's own schema accepts). The tools
 * stay strict where it matters: `invoke` decodes every call against the closed schema and refuses unknown fields.
 */
export function toOpenAiFunctionTools(tools: readonly RunTool[]): OpenAiFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema, strict: false },
  }));
}

/**
 * Runs one tool call and returns the `content` of the tool message: the canonical JSON of the value, or of
 * `{ error: { code, message } }` (also for a name that is not in the bundle), so the model can correct itself.
 */
export async function dispatchOpenAiToolCall(tools: readonly RunTool[], call: OpenAiToolCall): Promise<string> {
  const target = tools.find((t) => t.name === call.name);
  if (target === undefined) {
    return canonicalJson({ error: { code: 'not_found', message: 'no tool with this name in the bundle' } });
  }
  const result = await target.invoke(call.arguments);
  return canonicalJson(
    result.ok ? result.value : { error: { code: result.error.code, message: result.error.message } },
  );
}
