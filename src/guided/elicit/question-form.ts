/**
 * The form for a guided question: one field, the question's own, built from that field's schema in the workflow's
 * confirmed-state schema. The question's options become the field's choices (titled by their labels) when every
 * option value is a string the schema allows; otherwise the field's schema must itself be a flat field. A question
 * that cannot be asked as a form (a nested field, numeric choices, a field the schema does not describe) has no form,
 * and the caller keeps the plain `input_required` answer. Every answer a form takes must fit a question option (it is
 * handed back as one, answered-question.ts): a text field takes at most ANSWER_ECHO_CHARS characters, and a field of
 * several choices (an array) or of choices longer than that is not asked as a form.
 */
import { digestJson, flatFieldOf, isJsonObject } from '../../core/index.js';
import type { FlatField, FlatForm, JsonObject, JsonValue } from '../../core/index.js';
import type { ReleaseScope } from '../scope.js';
import { ANSWER_ECHO_CHARS } from './answered-question.js';

/** A question asked as a form: what to show, the form, and the digest binding exactly this question. */
export interface QuestionForm {
  readonly field: string;
  readonly message: string;
  readonly form: FlatForm;
  /** SHA-256 of the canonical question: a later answer is only taken for this very question. */
  readonly questionSha256: string;
}

function fieldSchema(scope: ReleaseScope, checkpoint: JsonObject, field: string): JsonValue | undefined {
  const workflow = checkpoint['workflow'];
  if (!isJsonObject(workflow)) return undefined;
  const { id, version } = workflow;
  if (typeof id !== 'string' || typeof version !== 'string') return undefined;
  const index = scope.workflow(id, version);
  const ref = index?.workflow.confirmed_state_schema;
  const schema = ref === undefined ? undefined : scope.schema(ref.id, ref.version)?.schema;
  const properties = schema?.['properties'];
  return isJsonObject(properties) && Object.hasOwn(properties, field) ? properties[field] : undefined;
}

function choiceField(own: FlatField, options: readonly JsonValue[]): FlatField | undefined {
  const choices: { const: string; title: string }[] = [];
  for (const option of options) {
    if (!isJsonObject(option) || typeof option['value'] !== 'string') return undefined;
    const value = option['value'];
    if (own.type !== 'string' || ('oneOf' in own && !own.oneOf.some((c) => c.const === value))) return undefined;
    choices.push({ const: value, title: typeof option['label'] === 'string' ? option['label'] : value });
  }
  const { title, description } = own;
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    type: 'string',
    oneOf: choices,
  };
}

/** `own` as a form whose every answer fits a question option, or undefined when it cannot be one. */
function echoable(own: FlatField): FlatField | undefined {
  if (own.type === 'array') return undefined;
  if (own.type !== 'string') return own;
  if ('oneOf' in own) return own.oneOf.every((c) => c.const.length <= ANSWER_ECHO_CHARS) ? own : undefined;
  if ((own.minLength ?? 0) > ANSWER_ECHO_CHARS) return undefined;
  const cap = Math.min(own.maxLength ?? ANSWER_ECHO_CHARS, ANSWER_ECHO_CHARS);
  if (own.default !== undefined && own.default.length > cap) return undefined;
  return { ...own, maxLength: cap };
}

/**
 * The form asking `result`'s question (a continue or submit result with status `input_required`), or undefined when
 * the result asks none or its question cannot be a form.
 */
export function questionForm(scope: ReleaseScope, result: JsonObject): QuestionForm | undefined {
  const question = result['question'];
  const checkpoint = result['checkpoint'];
  if (result['status'] !== 'input_required' || !isJsonObject(question) || !isJsonObject(checkpoint)) return undefined;
  const field = question['field'];
  const prompt = question['prompt'];
  const options = question['options'];
  if (typeof field !== 'string' || typeof prompt !== 'string' || !Array.isArray(options)) return undefined;
  const own = flatFieldOf(fieldSchema(scope, checkpoint, field));
  if (own === undefined) return undefined;
  const asked = options.length > 0 ? choiceField(own, options) : echoable(own);
  if (asked === undefined) return undefined;
  return {
    field,
    message: prompt,
    form: { type: 'object', properties: { [field]: asked }, required: [field] },
    questionSha256: digestJson(question),
  };
}
