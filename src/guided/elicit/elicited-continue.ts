/**
 * rimthan.continue_workflow over two rounds, for a caller that can ask the person a form. Round one runs continue as
 * usual; when it needs one answer (`input_required` with a question a form can ask) it instead asks: the form and a
 * signed request state bound to this call. Round two presents the same arguments, the request state and the person's
 * answer: the state is verified (fail closed, RequestStateError), continue runs again and must still ask that very
 * question (else it is asked afresh), and the accepted answer becomes the field's participant confirmation — the call
 * then continues exactly as a continue with that `next_confirmed_state` would. A declined or cancelled answer gives
 * today's `input_required` result. Calls that already carry `next_confirmed_state` or `migration` are never asked.
 *
 * An applied answer also comes as `answered`: the same answer folded into the asked result (answered-question.ts), for
 * a caller that only sees `structuredContent` (a model behind an MCP host) and so could never learn the new state.
 */
import { digestJson, readFlatAnswer } from '../../core/index.js';
import type { Clock, FlatForm, JsonObject, RequestStateCall, RequestStateCodec } from '../../core/index.js';
import type { GuidedEngine } from '../engine/engine.js';
import { ProtocolReason, protocolError } from '../errors.js';
import type { ReleaseScope } from '../scope.js';
import { confirmedAnswer } from './answer.js';
import { answeredQuestion } from './answered-question.js';
import { questionForm } from './question-form.js';

/** What the person answered, with the request state of the round that asked. */
export interface FormAnswer {
  readonly requestState: unknown;
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: unknown;
}

export type ElicitedRound =
  /**
   * The tool's result. When an answer was applied: `confirmedState` is the projection the new checkpoint binds, and
   * `answered` the asked result with its question narrowed to the answer (answered-question.ts), which a caller that
   * keeps no state of its own can continue from.
   */
  | {
      readonly kind: 'result';
      readonly result: JsonObject;
      readonly confirmedState?: JsonObject;
      readonly answered?: JsonObject;
    }
  /** Ask the person `form` (showing `message`), then call again with the same arguments, the answer and `requestState`. */
  | { readonly kind: 'ask'; readonly message: string; readonly form: FlatForm; readonly requestState: string };

export interface ElicitedContinueDeps {
  readonly engine: GuidedEngine;
  readonly codec: RequestStateCodec;
  readonly clock: Clock;
}

/** One round of an elicited continue (see the file comment). `call.arguments` are the continue arguments. */
export function elicitedContinue(
  deps: ElicitedContinueDeps,
  scope: ReleaseScope,
  call: RequestStateCall,
  answer: FormAnswer | undefined,
  migrationTarget?: ReleaseScope,
): ElicitedRound {
  const verified = answer === undefined ? undefined : deps.codec.verify(answer.requestState, call);
  const args = call.arguments;
  const result = deps.engine.continueWorkflow(scope, args, migrationTarget);
  if (args['next_confirmed_state'] !== undefined || args['migration'] !== undefined) return { kind: 'result', result };
  const asked = questionForm(scope, result);
  if (asked === undefined) return { kind: 'result', result };
  const ask = (): ElicitedRound => ({
    kind: 'ask',
    message: asked.message,
    form: asked.form,
    requestState: deps.codec.issue(call, { key: asked.field, sha256: asked.questionSha256 }),
  });
  if (answer === undefined || verified === undefined) return ask();
  // The workflow moved on since the question was asked (or it asks another field): ask what it asks now.
  if (verified.pending.key !== asked.field || verified.pending.sha256 !== asked.questionSha256) return ask();
  if (answer.action !== 'accept') return { kind: 'result', result };
  const read = readFlatAnswer(asked.form, answer.content);
  const value = read.ok ? read.value[asked.field] : undefined;
  if (value === undefined) {
    throw protocolError(ProtocolReason.ElicitedAnswerInvalid, read.ok ? 'the answer is empty' : read.message);
  }
  const next = confirmedAnswer(args['confirmed_state'] as JsonObject, asked.field, value, deps.clock.now());
  const continued = deps.engine.continueWorkflow(scope, { ...args, next_confirmed_state: next }, migrationTarget);
  const checkpoint = continued['checkpoint'] as JsonObject;
  // Only a state the new checkpoint binds is handed back (a blocked answer keeps the prior state and checkpoint).
  const bound = checkpoint['confirmed_state_sha256'] === digestJson(next);
  if (!bound) return { kind: 'result', result: continued };
  return {
    kind: 'result',
    result: continued,
    confirmedState: next,
    answered: answeredQuestion(result, asked.field, value),
  };
}
