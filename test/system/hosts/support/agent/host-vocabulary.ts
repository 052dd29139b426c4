/**
 * How the scripted model does ordinary things on one host: which name a Rimthan tool has there, how to load deferred
 * tools, write and read a file, take digests, and run a validator as a subagent and collect its answer. The guided
 * agent is written once against this interface; Claude Code and Codex each implement it with their own tools, exactly
 * as a model on that host would use them.
 */
import type { ModelCall, Transcript, TranscriptEvent } from '../transcript.js';

export type GuidedTool = 'start_workflow' | 'continue_workflow' | 'prepare_step_validation' | 'submit_step_validation';
export const GUIDED_TOOLS: readonly GuidedTool[] = [
  'start_workflow',
  'continue_workflow',
  'prepare_step_validation',
  'submit_step_validation',
];

export type CallEvent = Extract<TranscriptEvent, { kind: 'call' }>;
export type ResultEvent = Extract<TranscriptEvent, { kind: 'result' }>;

/** A validator the main agent runs as a subagent. */
export interface ValidatorJob {
  readonly validatorId: string;
  readonly prompt: string;
}

/** Where collecting the validators' answers stands. */
export type ValidatorProgress =
  | { readonly kind: 'next'; readonly calls: readonly ModelCall[]; readonly text?: string }
  | { readonly kind: 'done'; readonly answers: ReadonlyMap<string, string> };

export interface HostDeclaration {
  readonly harness: string;
  readonly adapter: { readonly id: string; readonly version: string };
  readonly host_capabilities: readonly string[];
  readonly validator_capabilities: readonly string[];
}

export interface HostVocabulary {
  readonly declaration: HostDeclaration;
  /** The name of a Rimthan tool as offered on this request, or undefined while the host has not offered it. */
  guidedToolName(t: Transcript, tool: GuidedTool): string | undefined;
  /** Which Rimthan tool a call is, if it is one. */
  guidedToolOf(name: string): GuidedTool | undefined;
  /** What to do while the Rimthan tools are not offered yet (load deferred tools, or wait for the server). */
  awaitTools(t: Transcript): ModelCall;
  /** The repository the host works in, as the host told the model. */
  workspaceRoot(t: Transcript): string;
  /** Whether a call's result says it worked (a tool error, or a shell command that exited non-zero, did not). */
  succeeded(call: CallEvent, result: ResultEvent): boolean;
  writeFile(root: string, path: string, content: string): ModelCall;
  /** The project-relative path a call writes with the given content, if it is such a write. */
  writtenFile(root: string, call: CallEvent): { path: string; content: string } | undefined;
  readFile(root: string, path: string): ModelCall;
  /** The project-relative path a call reads, if it is a read. */
  readPath(root: string, call: CallEvent): string | undefined;
  /** The file's text from a read's result. */
  fileText(result: ResultEvent): string;
  digest(root: string, paths: readonly string[]): ModelCall;
  /** path → SHA-256 hex from a digest call's result, if the call was one. */
  digests(call: CallEvent, result: ResultEvent): ReadonlyMap<string, string> | undefined;
  /** Runs validators as subagents: the next calls to make after `since`, or every answer once all came back. */
  validatorProgress(t: Transcript, since: number, jobs: readonly ValidatorJob[]): ValidatorProgress;
}

/** Rimthan tool names end in `rimthan_<tool>` on both hosts (the dot of `rimthan.<tool>` is not allowed there). */
export function guidedToolFromName(name: string): GuidedTool | undefined {
  return GUIDED_TOOLS.find((tool) => name.endsWith(`rimthan_${tool}`));
}

/** The `sha256sum` output lines: `<hex>  <path>`. */
export function parseSha256sum(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m !== null && m[1] !== undefined && m[2] !== undefined) out.set(m[2], m[1]);
  }
  return out;
}

/** `a/b c` quoted for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
