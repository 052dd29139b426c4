/**
 * The tracing hook of the executor: told when an execution of a run starts (its flow's name and version) and how it
 * ended, and when each vertex try loop starts and how it ended. The hook knows nothing of OpenTelemetry (the CLI wires
 * one from src/observability) and is never given a run id, the state, the input or an error message: outcomes are
 * closed words (a run status, `released`, `lost`, `deferred`, `error`; a vertex's `completed`, `interrupted`,
 * `failed`, `halted`).
 */

/** One execution of one run, as a tracer follows it. */
export interface RunTrace {
  /** A vertex starts running; the function it returns is called once with the vertex's outcome. */
  startVertex(vertex: string): (outcome: string) => void;
  /** The execution ended (once). */
  end(outcome: string): void;
}

/** Starts following an execution of a run of flow `flow` at `version`. */
export type RunTracer = (facts: { readonly flow: string; readonly version: string }) => RunTrace;
