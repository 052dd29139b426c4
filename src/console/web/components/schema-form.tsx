/**
 * A form generated from a definition's JSON Schema (its input or resume schema): one field per property of the root
 * object. Strings (a select for an enum, a text area past 200 characters), numbers, integers, booleans (a checkbox)
 * and string arrays (one item per line) get their own control; anything else is edited as JSON. The form builds the
 * value; the run tools validate it against the schema, and their refusal is shown as it comes.
 */
import { useState } from 'preact/hooks';

type Schema = Record<string, unknown>;

interface Field {
  readonly name: string;
  readonly schema: Schema;
  readonly required: boolean;
}

type Kind = 'string' | 'enum' | 'text' | 'number' | 'integer' | 'boolean' | 'lines' | 'json';

function kindOf(schema: Schema): Kind {
  if (Array.isArray(schema['enum'])) return 'enum';
  const type = schema['type'];
  if (type === 'string')
    return typeof schema['maxLength'] === 'number' && schema['maxLength'] > 200 ? 'text' : 'string';
  if (type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'array' && (schema['items'] as Schema | undefined)?.['type'] === 'string') return 'lines';
  return 'json';
}

/** The root object's fields, in the schema's order. */
export function fieldsOf(schema: unknown): Field[] {
  const root = (schema ?? {}) as Schema;
  const properties = (root['properties'] ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(root['required']) ? (root['required'] as string[]) : []);
  return Object.entries(properties).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
}

/** The value a field's text stands for; undefined leaves the field out. Throws a message for text that is not one. */
function valueOf(field: Field, text: string, checked: boolean): unknown {
  const kind = kindOf(field.schema);
  if (kind === 'boolean') return checked;
  if (text.trim() === '' && !field.required) return undefined;
  switch (kind) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`${field.name} must be a number`);
      return n;
    }
    case 'lines':
      return text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error(`${field.name} must be JSON`);
      }
    case 'enum': {
      const options = field.schema['enum'] as unknown[];
      return options.find((o) => String(o) === text) ?? text;
    }
    default:
      return text;
  }
}

export interface SchemaFormProps {
  readonly schema: unknown;
  readonly submitLabel: string;
  readonly busy?: boolean;
  readonly idPrefix: string;
  onSubmit(value: Record<string, unknown>): void;
}

export function SchemaForm(props: SchemaFormProps) {
  const fields = fieldsOf(props.schema);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [checks, setChecks] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: Event): void => {
    event.preventDefault();
    try {
      const value: Record<string, unknown> = {};
      for (const f of fields) {
        const v = valueOf(f, texts[f.name] ?? '', checks[f.name] ?? false);
        if (v !== undefined) value[f.name] = v;
      }
      setProblem(null);
      props.onSubmit(value);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <form class="schema-form" onSubmit={submit}>
      {fields.map((f) => {
        const id = `${props.idPrefix}-${f.name}`;
        const kind = kindOf(f.schema);
        const description = typeof f.schema['description'] === 'string' ? f.schema['description'] : undefined;
        const setText = (event: Event): void =>
          setTexts({ ...texts, [f.name]: (event.currentTarget as HTMLInputElement).value });
        const label = (
          <label for={id}>
            {f.name}
            {f.required && <span class="required"> (required)</span>}
            {kind === 'lines' && <span class="hint"> one per line</span>}
            {kind === 'json' && <span class="hint"> JSON</span>}
          </label>
        );
        if (kind === 'boolean') {
          return (
            <div class="field checkbox" key={f.name}>
              <input
                id={id}
                name={f.name}
                type="checkbox"
                checked={checks[f.name] ?? false}
                onChange={(e) => setChecks({ ...checks, [f.name]: e.currentTarget.checked })}
              />
              {label}
            </div>
          );
        }
        return (
          <div class="field" key={f.name}>
            {label}
            {description !== undefined && <p class="hint">{description}</p>}
            {kind === 'enum' ? (
              <select id={id} name={f.name} value={texts[f.name] ?? ''} onChange={setText}>
                <option value="">—</option>
                {(f.schema['enum'] as unknown[]).map((o) => (
                  <option key={String(o)} value={String(o)}>
                    {String(o)}
                  </option>
                ))}
              </select>
            ) : kind === 'lines' || kind === 'text' || kind === 'json' ? (
              <textarea
                id={id}
                name={f.name}
                rows={kind === 'text' ? 4 : 3}
                value={texts[f.name] ?? ''}
                onInput={setText}
              />
            ) : kind === 'string' ? (
              <input id={id} name={f.name} type="text" value={texts[f.name] ?? ''} onInput={setText} />
            ) : (
              <input
                id={id}
                name={f.name}
                type="number"
                step={kind === 'integer' ? 1 : 'any'}
                value={texts[f.name] ?? ''}
                onInput={setText}
              />
            )}
          </div>
        );
      })}
      {problem !== null && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" disabled={props.busy === true}>
        {props.submitLabel}
      </button>
    </form>
  );
}
