/**
 * A guided tool call exactly as an MCP client's goes: the workflow-engine profile's compiled contract (input schema),
 * its release routing (the checkpoint's pinned release) and the engine, through the one tool-call path (runToolCall),
 * then the output schema. Only the MCP framing is left out: the answer is the structured result or the tool error.
 */
import { isErrorCode, isJsonObject, parseStrictJson } from '../../core/index.js';
import type { JsonObject, TokenSigner } from '../../core/index.js';
import type { GuidedToolName } from '../../guided/index.js';
import { createWorkflowEngineProfile, runToolCall } from '../../mcp/index.js';
import type { FaultReporter, ReleaseProvider, ToolFailure } from '../../mcp/index.js';

export type GuidedOutcome =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly error: ToolFailure };

export type GuidedCall = (tool: GuidedToolName, args: JsonObject) => Promise<GuidedOutcome>;

/** The error object of a tool-error result (its text block holds `{error: {...}}` as canonical JSON). */
function failureOf(text: string | undefined): ToolFailure {
  const parsed = text === undefined ? undefined : parseStrictJson(text);
  const error = parsed?.ok === true && isJsonObject(parsed.value) ? parsed.value['error'] : undefined;
  const code = isJsonObject(error) ? error['code'] : undefined;
  if (!isJsonObject(error) || typeof code !== 'string' || !isErrorCode(code) || typeof error['message'] !== 'string') {
    return { code: 'internal', message: 'internal error' };
  }
  const reason = error['reason'];
  return typeof reason === 'string' ? { code, message: error['message'], reason } : { code, message: error['message'] };
}

/** Guided calls against `releases`, signed and verified with `signer` (the same key ring the server uses). */
export function guidedCaller(opts: {
  readonly releases: ReleaseProvider;
  readonly signer: TokenSigner;
  readonly maxArgumentBytes: number;
  readonly onFault?: FaultReporter;
}): GuidedCall {
  const profile = createWorkflowEngineProfile({
    releases: opts.releases,
    signer: opts.signer,
    maxArgumentBytes: opts.maxArgumentBytes,
    bootstrap: '',
    ...(opts.onFault === undefined ? {} : { onFault: opts.onFault }),
  });
  return async (tool, args) => {
    const entry = profile.tools.find((t) => t.contract.name === tool);
    if (entry === undefined) return { ok: false, error: { code: 'internal', message: 'internal error' } };
    const result = await runToolCall(entry.contract, args, entry.handler, {
      maxArgumentBytes: profile.maxArgumentBytes,
      ...(opts.onFault === undefined ? {} : { onFault: opts.onFault }),
    });
    if (result.isError === true) {
      const block = result.content[0];
      return { ok: false, error: failureOf(block?.type === 'text' ? block.text : undefined) };
    }
    const value = result.structuredContent;
    return isJsonObject(value) ? { ok: true, value: value } : { ok: false, error: failureOf(undefined) };
  };
}
