/**
 * `rimthan participant run` drives the packaged research workflow that is ACTIVE, from the served content alone, over
 * stdio and over Streamable HTTP with a bearer token: every route the served route question offers, to `completed`,
 * with a validator failure and its repair on the way. The route names, step ids and artifact paths all come from
 * what the server serves (status, step payloads); the validator is a real separate process per report.
 */
import { str } from '../../src/participant/index.js';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { JsonObject } from '../../src/core/index.js';
import { httpServer, runToCompletion, status, stdioServer, tempDir, VALIDATOR_COMMAND } from './support/cli.js';
import type { Served } from './support/cli.js';
import { ANSWERS, OBJECTIVE, runToRouteQuestion } from './support/route-question.js';

async function everyRoute(served: Served, root: string): Promise<JsonObject[]> {
  const first = join(root, 'first');
  mkdirSync(first);
  await runToRouteQuestion(served, first, join(root, 'answers.json'));
  const question = status(served, first)['question'] as JsonObject;
  const options = question['options'] as string[];
  assert.ok(options.length >= 2, `the served route question offers ${options.join(', ')}`);

  const summaries: JsonObject[] = [];
  for (const [i, option] of options.entries()) {
    // The workspace as committed at the question; each route continues its own copy.
    const dir = join(root, `route-${i}`);
    cpSync(first, dir, { recursive: true });
    const routeAnswers = join(root, `answers-${i}.json`);
    writeFileSync(routeAnswers, JSON.stringify({ ...ANSWERS, [str(question['field'])]: option }));
    const drive = await runToCompletion(
      served,
      dir,
      ['--answers', routeAnswers, '--validator-command', VALIDATOR_COMMAND, '--yes'],
      { failOnce: true, answersFile: routeAnswers },
    );
    assert.equal(drive.last['status'], 'completed', JSON.stringify(drive.last));
    assert.equal(drive.repaired.length, 1, 'one validator failure was repaired');
    const final = status(served, dir);
    assert.equal(final['completed'], true);
    assert.deepEqual(
      (final['outputs'] as JsonObject[]).map((o) => o['accepted']),
      (final['outputs'] as JsonObject[]).map(() => true),
    );
    const session = readFileSync(join(dir, '.rimthan', 'workflow-session.json'), 'utf8');
    assert.deepEqual(Object.keys(JSON.parse(session) as JsonObject).sort(), ['checkpoint', 'confirmed_state']);
    assert.ok(!session.includes('unrepeated measurement'), 'no finding in the session file');
    assert.ok(!session.includes('Desk findings') && !session.includes('Spike notes'), 'no artifact body in it');
    assert.ok(
      !JSON.stringify((JSON.parse(session) as JsonObject)['checkpoint']).includes(OBJECTIVE),
      'the checkpoint holds no objective',
    );
    summaries.push({ option, steps: drive.stepsWritten, ...drive.last });
  }
  return summaries;
}

describe('rimthan participant run: the active research workflow, every route, to completed', () => {
  const stdioRoot = tempDir('rimthan-participant-stdio-');
  const httpRoot = tempDir('rimthan-participant-http-');
  after(() => {
    stdioRoot.cleanup();
    httpRoot.cleanup();
  });

  test('over stdio (the CLI launches rimthan serve), with a validator failure and repair on each route', async () => {
    const summaries = await everyRoute(stdioServer(stdioRoot.dir), stdioRoot.dir);
    assert.ok(summaries.length >= 2);
  });

  test('over Streamable HTTP with a bearer token from a file, with a validator failure and repair on each route', async () => {
    const served = await httpServer(httpRoot.dir);
    try {
      const summaries = await everyRoute(served, httpRoot.dir);
      assert.ok(summaries.length >= 2);
      for (const s of summaries) assert.ok(Number(s['received_bytes']) > 0);
    } finally {
      await served.close();
    }
  });
});
