/**
 * A guided question the person answered through a form, handed back the way a model can act on it by itself. A host
 * shows its model only the JSON of a result's `structuredContent`, and continue's output has no place for a confirmed
 * state, so the answer is folded into the result a model already knows: the `input_required` result the question was
 * asked with (same checkpoint, so the confirmed state the model sent still matches it), its question narrowed to one
 * option, the person's answer, and its prompt saying what to send next. The model then continues exactly as after an
 * answer given in the conversation: `next_confirmed_state` with that field set and confirmed.
 */
import type { JsonObject, JsonValue } from '../../core/index.js';

/**
 * Longest text answer a form may take: a question option's value holds at most 256 characters (the published
 * `question` shape's `scalar`), and the answer is handed back as one.
 */
export const ANSWER_ECHO_CHARS = 256;

/** The longest question prompt (the published `question` shape). */
const PROMPT_CHARS = 4000;

/** The prompt of an answered question: what to send next, then (when it fits) the question as the workflow asked it. */
export function answeredPrompt(field: string, asked: string): string {
  const note =
    'The person already answered this question through a form: the one option below is their answer. Do not ask ' +
    'again. Call rimthan.continue_workflow with this checkpoint, the same confirmed_state, and next_confirmed_state: ' +
    `that state with "${field}" set to the option's value and its confirmation (confirmed_by "participant", ` +
    'confirmed_at now).';
  const full = `${note} The question was: ${asked}`;
  return full.length <= PROMPT_CHARS ? full : note;
}

/**
 * `asked` (the `input_required` continue result whose question the form asked) with its question narrowed to the
 * person's `value` for `field`. The value must be a scalar a question option can hold (questionForm only asks such).
 */
export function answeredQuestion(asked: JsonObject, field: string, value: JsonValue): JsonObject {
  const question = asked['question'] as JsonObject;
  const options = Array.isArray(question['options']) ? question['options'] : [];
  const offered = options.find((o) => (o as JsonObject)['value'] === value) as JsonObject | undefined;
  const label = typeof offered?.['label'] === 'string' ? offered['label'] : 'The answer given in the form';
  return {
    ...asked,
    question: { field, prompt: answeredPrompt(field, question['prompt'] as string), options: [{ value, label }] },
  };
}
