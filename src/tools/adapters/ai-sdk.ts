/**
 * Vercel AI SDK v6 adapter: the run tools as an AI SDK tool set. The model-facing schema is the tool's own JSON Schema;
 * the AI SDK does not validate it (no `validate` is passed), because `invoke` decodes the arguments strictly itself.
 */
import { jsonSchema, tool } from 'ai';
import type { Tool } from 'ai';
import { canonicalJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { RunTool } from '../types.js';

/** What an adapted tool returns: the tool's value, or its error as data the model can read and act on. */
export type AiSdkRunToolOutput = JsonObject | { error: { code: string; message: string } };

const NOT_JSON = 'arguments cannot be written as JSON (nested too deep, a number out of range or a lone surrogate)';

/**
 * The model's arguments as RFC 8785 text, or undefined when JSON cannot carry them. (`JSON.stringify` would write a
 * number the SDK parsed as Infinity as `null`, so the tool would judge a document the model never sent.)
 */
function exactText(args: unknown): string | undefined {
  try {
    return canonicalJson(args);
  } catch {
    return undefined;
  }
}

/** Builds `{ [tool name]: tool }` for `generateText` / `streamText`; each call goes through `invoke`. */
export function toAiSdkTools(tools: readonly RunTool[]): Record<string, Tool<JsonObject, AiSdkRunToolOutput>> {
  const out: Record<string, Tool<JsonObject, AiSdkRunToolOutput>> = {};
  for (const runTool of tools) {
    out[runTool.name] = tool<JsonObject, AiSdkRunToolOutput>({
      title: runTool.title,
      description: runTool.description,
      inputSchema: jsonSchema<JsonObject>(runTool.inputSchema),
      async execute(args: JsonObject): Promise<AiSdkRunToolOutput> {
        const text = exactText(args);
        if (text === undefined) return { error: { code: 'invalid_arguments', message: NOT_JSON } };
        const result = await runTool.invoke(text);
        return result.ok ? result.value : { error: { code: result.error.code, message: result.error.message } };
      },
    });
  }
  return out;
}
