/**
 * A research-decision host scenario (scenarios/billing-queue.ts) as the guided agent's script: the objective at the
 * start, the interview answers at the interview step, the route chosen at the route question, the scenario's drafts
 * (the flawed first draft, then the repaired one), and the research checks as what the validators judge by.
 */
import type { JsonValue } from '../../../../../src/core/index.js';
import type { Scenario } from '../../scenarios/billing-queue.js';
import type { GuidedScript } from './guided-script.js';
import { RESEARCH_CRITERIA } from './research-checks.js';

export function researchScript(scenario: Scenario): GuidedScript {
  return {
    workflow: 'research',
    startState: { objective: scenario.objective },
    fieldsAt: (stepId): Readonly<Record<string, JsonValue>> => (stepId === 'interview' ? scenario.interview : {}),
    answer: (_stepId, field) => (field === 'research_route' ? scenario.route : scenario.interview[field]),
    draft(_stepId, artifactId, failedRounds) {
      const drafts = scenario.drafts[artifactId];
      return drafts === undefined || drafts.length === 0
        ? undefined
        : drafts[Math.min(failedRounds, drafts.length - 1)];
    },
    repairs: (_stepId, artifactIds) => Math.max(...artifactIds.map((id) => scenario.drafts[id]?.length ?? 1)) - 1,
    criteria: RESEARCH_CRITERIA,
  };
}
