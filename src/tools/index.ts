/**
 * tools: the seven durable-run tools as framework-neutral objects (`{ name, description, inputSchema, outputSchema,
 * annotations, invoke(json) }`), plus the OpenAI function-calling adapter. This file is the whole public API of
 * `rimthan/tools`. The Vercel AI SDK adapter lives in `./adapters/ai-sdk.js` and is deliberately not re-exported here:
 * it imports `ai`, which is not a runtime dependency of this package.
 */
export { createRunTools, findRunTool } from './bundle.js';
export type { PrepareRun, RunTool, RunToolAnnotations, RunToolsCatalog, RunToolsConfig } from './types.js';
export { RunToolName } from './types.js';
export type { RunToolError, RunToolResult } from './result.js';
export { RunToolErrorCode } from './result.js';
export type { FaultReporter } from './faults.js';
export { ARGUMENT_LIMITS, parseUuid } from './strict-args.js';
export { MAX_CANCEL_REASON_BYTES } from './run-cancel.js';
export { MAX_LISTED_DEFINITIONS } from './definition-list.js';
export { PAGE_LIMIT } from './schemas.js';
export type { OpenAiFunctionTool, OpenAiToolCall } from './adapters/openai.js';
export { dispatchOpenAiToolCall, toOpenAiFunctionTools } from './adapters/openai.js';
export { createRunHandles, HandlePhase } from './run-handles.js';
export type { ResumeAnswer, ResumeRound, RunHandles } from './run-handles.js';
export { resumeFormFor } from './resume-form.js';
export type { ResumeForm } from './resume-form.js';
