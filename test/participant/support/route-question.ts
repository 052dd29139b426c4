/**
 * The opening of the research workflow as a person drives it with `rimthan participant run`: start with the
 * objective and the interview answers, write each gated step's files where the run stops for them (the research plan
 * of research-decision 1.3.0 comes before the route), until the run stops at the route question it cannot answer.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { writeStepOutputs } from './agent.js';
import { HOST, participant, VALIDATOR_COMMAND } from './cli.js';
import type { CliResult, Served } from './cli.js';

export const OBJECTIVE = 'Pick the queue for billing events before the Q1 migration';
/** The interview answers, without the route (the question the opening stops at). */
export const ANSWERS = {
  decision_question: 'Which message queue should the billing service adopt?',
  candidate_options: ['kafka', 'rabbitmq'],
};

/** Gated steps the opening may stop at for files before the route question (a bound, so a loop cannot spin). */
const MAX_OPENING_STEPS = 6;

/**
 * Writes `ANSWERS` to `answersFile`, then runs `participant run` in `dir` (writing the served step's outputs each time
 * it stops for them) until it exits 1 asking for the route field; returns that last run.
 */
export async function runToRouteQuestion(served: Served, dir: string, answersFile: string): Promise<CliResult> {
  writeFileSync(answersFile, JSON.stringify(ANSWERS));
  const args = [
    'run',
    '--workflow',
    'research',
    ...HOST,
    '--set',
    `objective=${OBJECTIVE}`,
    '--answers',
    answersFile,
    '--validator-command',
    VALIDATOR_COMMAND,
    '--yes',
  ];
  let r = participant(served, dir, args);
  for (let i = 0; i < MAX_OPENING_STEPS && /is not there yet/.test(r.stderr); i++) {
    await writeStepOutputs(served.target, dir, { markForRepair: false });
    r = participant(served, dir, args);
  }
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /needs an answer to /);
  return r;
}
