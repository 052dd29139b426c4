/**
 * The route scenario as written (docs/authoring/scenarios.md, schemas/authoring/scenario.schema.json): what a loaded
 * scenario holds once its file passed the schema and its fixtures were read.
 */
import type { JsonValue } from '../core/index.js';

/** A finding of a failed validator report. */
export interface ScenarioFinding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly artifact_id?: string;
  readonly location?: string;
}

/** A validator report of a round: `passed`, or the outcome and its findings. */
export type ScenarioReport =
  'passed' | { readonly outcome: 'passed' | 'failed'; readonly findings: readonly ScenarioFinding[] };

/** A fixture the deterministic check must refuse. */
export interface ScenarioRefusal {
  readonly artifact: string;
  readonly fixture: string;
  readonly code: string;
  readonly because?: string;
}

/** One entry of `steps`. */
export interface ScenarioStep {
  readonly step: string;
  readonly confirm?: Readonly<Record<string, JsonValue>>;
  readonly artifacts?: Readonly<Record<string, string>>;
  readonly refused?: readonly ScenarioRefusal[];
  readonly reports?: readonly Readonly<Record<string, ScenarioReport>>[];
  /** Entry k: artifact id → fixture written after round k + 1, before the next round is prepared. */
  readonly revised?: readonly Readonly<Record<string, string>>[];
  readonly answer?: string | number | boolean;
}

export interface ScenarioHost {
  readonly harness: string;
  readonly adapter?: { readonly id: string; readonly version: string };
  readonly host_capabilities: readonly string[];
  readonly validator_capabilities: readonly string[];
  readonly project_local?: boolean;
}

export interface Scenario {
  readonly title: string;
  readonly description?: string;
  readonly workflow: string;
  readonly workflow_version?: string;
  readonly host: ScenarioHost;
  readonly state: Readonly<Record<string, JsonValue>>;
  readonly steps: readonly ScenarioStep[];
  readonly end: 'completed';
}

/** A key path inside a scenario file (object keys and array indexes), as the line lookup takes it. */
export type ScenarioPath = readonly (string | number)[];

/** A scenario file that loaded: the scenario, its fixtures' bytes, and the line of any path in it. */
export interface LoadedScenario {
  /** Path relative to the source folder, POSIX separators (`scenarios/<workflow>/<name>.yaml`). */
  readonly file: string;
  readonly scenario: Scenario;
  /** Fixture path (as written) → its bytes. */
  readonly fixtures: ReadonlyMap<string, Buffer>;
  /** 1-based line of the node at `path` (the key line of a mapping member), or of its nearest existing ancestor. */
  readonly lineOf: (path: ScenarioPath) => number;
}

/** Something wrong with a scenario, at a file and line of the source folder. */
export interface ScenarioProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** `file:line: message`. */
export function formatScenarioProblem(p: ScenarioProblem): string {
  return `${p.file}:${p.line}: ${p.message}`;
}
