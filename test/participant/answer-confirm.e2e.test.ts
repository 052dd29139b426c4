/**
 * The keyboard confirmation of `rimthan participant answer` (docs/cli.md): without `--yes` the CLI shows the field and
 * the value and sends only after the person types y. "n", or no keyboard at all, sends nothing: the session file stays
 * as it was and the server is never asked. The real CLI over stdio, at the route question of research-decision.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { participant, stdioServer, tempDir, type Served } from './support/cli.js';
import { runToRouteQuestion } from './support/route-question.js';

const SESSION = join('.rimthan', 'workflow-session.json');

describe('participant answer asks the person at the keyboard', () => {
  const root = tempDir('rimthan-answer-confirm-');
  const work = join(root.dir, 'repo');
  let served: Served;
  let atQuestion = '';

  before(async () => {
    served = stdioServer(root.dir);
    mkdirSync(work);
    const opening = await runToRouteQuestion(served, work, join(root.dir, 'answers.json'));
    assert.match(opening.stderr, /needs an answer to research_route/);
    atQuestion = readFileSync(join(work, SESSION), 'utf8');
  });
  after(() => root.cleanup());

  const answer = (input: string) => participant(served, work, ['answer', 'research_route', 'desk-research'], { input });

  test('no keyboard and no --yes: refused naming both ways to confirm, nothing sent', () => {
    const r = answer('');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /research_route was not confirmed: answer y at the prompt, or pass --yes/);
    assert.equal(readFileSync(join(work, SESSION), 'utf8'), atQuestion);
  });

  test('the person types n: the value was shown, nothing is sent', () => {
    const r = answer('n\n');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Confirm research_route = "desk-research"\? \[y\/N\]/);
    assert.match(r.stderr, /research_route was not confirmed; nothing was sent/);
    assert.equal(readFileSync(join(work, SESSION), 'utf8'), atQuestion);
  });

  test('the person types y: the answer is sent and the workflow moves on', () => {
    const r = answer('y\n');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /Confirm research_route = "desk-research"\? \[y\/N\]/);
    assert.match(r.stdout, /^step desk-research/m);
    const after = readFileSync(join(work, SESSION), 'utf8');
    assert.notEqual(after, atQuestion);
    const confirmed = (JSON.parse(after) as { confirmed_state: unknown }).confirmed_state;
    assert.match(JSON.stringify(confirmed), /"research_route":"desk-research"/);
  });
});
