/**
 * What the scripted model of a guided workflow knows beyond what its host shows it: what the person asked for and
 * confirmed, the answers the person gave, the drafts the model authors (the next one after each failed validation),
 * and what its validator subagents judge by. Every protocol decision stays the model's, from what the host showed.
 */
import type { JsonValue } from '../../../../../src/core/index.js';
import type { ValidatorCriteria } from './validator-agent.js';

export interface GuidedScript {
  /** The workflow the person asked for (an id or an alias). */
  readonly workflow: string;
  /** What the person said and confirmed before the start. */
  readonly startState: Readonly<Record<string, JsonValue>>;
  /** Fields the person confirms at `stepId`: before its work (a gated step) or to leave it (an ungated one). */
  fieldsAt(stepId: string): Readonly<Record<string, JsonValue>>;
  /** The person's answer to the question of `field` asked at `stepId`, if they gave one. */
  answer(stepId: string, field: string): JsonValue | undefined;
  /** What the model writes for `artifactId` at `stepId` after `failedRounds` failed validations, if it has it. */
  draft(stepId: string, artifactId: string, failedRounds: number): string | undefined;
  /** How many failed validations of `stepId` (writing `artifactIds`) the model repairs before it gives up. */
  repairs(stepId: string, artifactIds: readonly string[]): number;
  /** What the validator subagents judge by. */
  readonly criteria: ValidatorCriteria;
}
