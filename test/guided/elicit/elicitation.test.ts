import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RequestStateCodec, RequestStateError, SchemaCompiler } from '../../../src/core/index.js';
import type { JsonObject, RequestStateCall } from '../../../src/core/index.js';
import {
  GUIDED_TOOL_CONTRACTS,
  GuidedError,
  createReleaseScope,
  elicitedContinue,
  questionForm,
} from '../../../src/guided/index.js';
import type { ElicitedRound } from '../../../src/guided/index.js';
import { chooseRoute, proceed, toRouteSelection } from '../fixtures/drive.js';
import type { Position } from '../fixtures/drive.js';
import { Session, signerFor } from '../fixtures/harness.js';
import { WORKFLOW_ID, WORKFLOW_VERSION, fixtureRelease } from '../fixtures/release.js';

const scope = createReleaseScope(fixtureRelease());
const TOOL = 'rimthan.continue_workflow';

function setup(): { session: Session; pos: Position; codec: RequestStateCodec; call: RequestStateCall } {
  const session = new Session(scope);
  const pos = toRouteSelection(session);
  const codec = new RequestStateCodec(signerFor(), session.clock);
  const call = {
    tool: TOOL,
    arguments: { checkpoint: pos.checkpoint, confirmed_state: pos.state },
    principalId: 'user:alice',
  };
  return { session, pos, codec, call };
}

function asked(round: ElicitedRound): Extract<ElicitedRound, { kind: 'ask' }> {
  assert.equal(round.kind, 'ask');
  return round;
}

function result(round: ElicitedRound): Extract<ElicitedRound, { kind: 'result' }> {
  assert.equal(round.kind, 'result');
  return round;
}

describe('guided questions answered through a form', () => {
  test('the route question becomes a one-field form whose choices are the options, titled by their labels', () => {
    const { session, codec, call } = setup();
    const round = asked(
      elicitedContinue({ engine: session.engine, codec, clock: session.clock }, scope, call, undefined),
    );
    assert.equal(round.message, 'Which research route should we take?');
    assert.deepEqual(round.form, {
      type: 'object',
      properties: {
        research_route: {
          type: 'string',
          oneOf: [
            { const: 'desk-research', title: 'Desk research' },
            { const: 'user-interviews', title: 'User interviews' },
          ],
        },
      },
      required: ['research_route'],
    });
  });

  test('an accepted answer continues exactly as a continue with that confirmed field would', () => {
    const { session, pos, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    const first = asked(elicitedContinue(deps, scope, call, undefined));
    session.clock.advance(30_000);
    const answer = {
      requestState: first.requestState,
      action: 'accept' as const,
      content: { research_route: 'desk-research' },
    };
    const done = result(elicitedContinue(deps, scope, call, answer));
    assert.equal(done.result['status'], 'active');
    assert.equal((done.result['checkpoint'] as JsonObject)['current_step'], 'desk-research');
    // The confirmed state handed back is what the plain path would have sent, confirmed now by the participant.
    const state = done.confirmedState as JsonObject;
    assert.equal((state['state'] as JsonObject)['research_route'], 'desk-research');
    assert.deepEqual((state['confirmations'] as JsonObject)['research_route'], {
      confirmed_by: 'participant',
      confirmed_at: session.clock.iso(),
    });
    const plain = proceed(session, pos, state);
    assert.deepEqual(done.result, plain, 'the same result as a plain continue with that next_confirmed_state');
    // And the harness can go on with it: the plain path from the chosen route is the same position.
    const viaPlain = chooseRoute(session, pos, 'desk-research');
    assert.equal(viaPlain.checkpoint['current_step'], 'desk-research');
  });

  test('an accepted answer is handed back as the answered question a model can go on from by itself', () => {
    const { session, pos, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    const first = asked(elicitedContinue(deps, scope, call, undefined));
    const content = { research_route: 'user-interviews' };
    const answer = { requestState: first.requestState, action: 'accept' as const, content };
    const done = result(elicitedContinue(deps, scope, call, answer));
    const answered = done.answered as JsonObject;
    // The asked result (same checkpoint, so the state the model sent still binds), narrowed to the answer.
    const plain = proceed(session, pos);
    assert.deepEqual({ ...answered, question: plain['question'] }, plain);
    const question = answered['question'] as JsonObject;
    assert.equal(question['field'], 'research_route');
    assert.deepEqual(question['options'], [{ value: 'user-interviews', label: 'User interviews' }]);
    assert.match(question['prompt'] as string, /already answered.*next_confirmed_state.*The question was: Which/);
    const contract = GUIDED_TOOL_CONTRACTS.find((c) => c.name === TOOL);
    assert.deepEqual(new SchemaCompiler().compile(contract?.outputSchema as JsonObject)(answered), { ok: true });
    // What the prompt says to send goes on along the person's route.
    session.clock.advance(1000);
    assert.equal(chooseRoute(session, pos, 'user-interviews').checkpoint['current_step'], 'interview-plan');
  });

  test('every answer a form takes fits the question option it is handed back as (at most 256 characters)', () => {
    const notes = {
      long_note: { type: 'string', maxLength: 1000 },
      free_note: { type: 'string' },
      short_note: { type: 'string', maxLength: 40 },
      essay: { type: 'string', minLength: 300 },
      tags: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b'] } },
    };
    const noteScope = createReleaseScope(
      fixtureRelease((draft) => {
        for (const s of draft.schemas) {
          const properties = s.schema['properties'] as JsonObject | undefined;
          if (properties?.['research_route'] !== undefined) Object.assign(properties, notes);
        }
      }),
    );
    const formFor = (field: string) =>
      questionForm(noteScope, {
        status: 'input_required',
        checkpoint: { workflow: { id: WORKFLOW_ID, version: WORKFLOW_VERSION } },
        question: { field, prompt: 'Anything to add?', options: [] },
      })?.form.properties[field];
    assert.deepEqual(formFor('long_note'), { type: 'string', maxLength: 256 });
    assert.deepEqual(formFor('free_note'), { type: 'string', maxLength: 256 });
    assert.deepEqual(formFor('short_note'), { type: 'string', maxLength: 40 });
    assert.equal(formFor('essay'), undefined, 'an answer that cannot fit is not asked as a form');
    assert.equal(formFor('tags'), undefined, 'several choices are not one option');
  });

  test('a declined or cancelled answer gives the plain input_required result', () => {
    const { session, pos, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    for (const action of ['decline', 'cancel'] as const) {
      const first = asked(elicitedContinue(deps, scope, call, undefined));
      const done = result(elicitedContinue(deps, scope, call, { requestState: first.requestState, action }));
      assert.deepEqual(done.result, proceed(session, pos));
      assert.equal(done.confirmedState, undefined);
    }
  });

  test('an answer that is not one of the choices is refused with a structured protocol error', () => {
    const { session, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    const first = asked(elicitedContinue(deps, scope, call, undefined));
    for (const content of [
      { research_route: 'astrology' },
      { research_route: 3 },
      {},
      { other: 'x' },
      'desk-research',
    ]) {
      assert.throws(
        () => elicitedContinue(deps, scope, call, { requestState: first.requestState, action: 'accept', content }),
        (e: unknown) =>
          e instanceof GuidedError && e.reason === 'elicited_answer_invalid' && !e.message.includes('astrology'),
      );
    }
  });

  test('the request state is refused when tampered, expired, for other arguments or another principal', () => {
    const { session, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    const first = asked(elicitedContinue(deps, scope, call, undefined));
    const answer = (requestState: string) => ({
      requestState,
      action: 'accept' as const,
      content: { research_route: 'desk-research' },
    });
    const reason = (c: RequestStateCall, requestState: string): string => {
      try {
        elicitedContinue(deps, scope, c, answer(requestState));
      } catch (error) {
        assert.ok(error instanceof RequestStateError);
        return error.reason;
      }
      return 'accepted';
    };
    const t = first.requestState;
    const flipped = t.slice(0, 10) + (t[10] === 'A' ? 'B' : 'A') + t.slice(11);
    assert.equal(reason(call, flipped), 'tampered');
    const otherArgs = { ...call, arguments: { ...call.arguments, extra: 1 } };
    assert.equal(reason(otherArgs, t), 'other_arguments');
    assert.equal(reason({ ...call, principalId: 'user:bob' }, t), 'other_principal');
    assert.equal(reason({ ...call, tool: 'rimthan.submit_step_validation' }, t), 'other_tool');
    session.clock.advance(10 * 60 * 1000);
    assert.equal(reason(call, t), 'expired');
  });

  test('a call that already carries next_confirmed_state is never turned into a form', () => {
    const { session, pos, codec, call } = setup();
    const deps = { engine: session.engine, codec, clock: session.clock };
    const withNext = { ...call, arguments: { ...call.arguments, next_confirmed_state: pos.state } };
    const round = result(elicitedContinue(deps, scope, withNext, undefined));
    assert.equal(round.result['status'], 'input_required');
  });
});
