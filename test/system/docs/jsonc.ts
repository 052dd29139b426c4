/**
 * The docs' abbreviated JSON: JSON with `//` comments and `…` for what a reader need not see. Parsed into a pattern
 * that a real value must match, so an example output in the docs is checked against what the server returns:
 *
 * - `{ "a": 1, … }`: an object with at least these members (without `…`: exactly these);
 * - `[x, y, …]`: an array that starts with these elements (without `…`: exactly these);
 * - `"abc…"` or `"abc …"`: a string that starts with `abc`; `…` alone as a value: anything.
 */

export type Pattern =
  | { readonly kind: 'any' }
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'object'; readonly members: ReadonlyMap<string, Pattern>; readonly open: boolean }
  | { readonly kind: 'array'; readonly items: readonly Pattern[]; readonly open: boolean };

const ELLIPSIS = '…';

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  private skip(): void {
    for (;;) {
      const ws = /^\s+/.exec(this.text.slice(this.at));
      if (ws !== null) this.at += ws[0].length;
      if (this.text.startsWith('//', this.at)) {
        const nl = this.text.indexOf('\n', this.at);
        this.at = nl < 0 ? this.text.length : nl + 1;
        continue;
      }
      return;
    }
  }

  peek(): string {
    this.skip();
    return this.text[this.at] ?? '';
  }

  take(expected: string): void {
    if (this.peek() !== expected) this.fail(`expected ${expected}`);
    this.at += expected.length;
  }

  fail(why: string): never {
    throw new Error(
      `abbreviated JSON, offset ${this.at}: ${why} near ${JSON.stringify(this.text.slice(this.at, this.at + 30))}`,
    );
  }

  string(): string {
    this.skip();
    const m = /^"(?:[^"\\\n]|\\.)*"/.exec(this.text.slice(this.at));
    if (m === null) this.fail('expected a string');
    this.at += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  value(): Pattern {
    const c = this.peek();
    if (c === ELLIPSIS) {
      this.at += 1;
      return { kind: 'any' };
    }
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') {
      const text = this.string();
      // "abc …" and "abc…" both mean: starts with "abc".
      return text.endsWith(ELLIPSIS)
        ? { kind: 'prefix', text: text.slice(0, -1).trimEnd() }
        : { kind: 'literal', value: text };
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.at));
    if (m === null) this.fail('expected a value');
    this.at += m[0].length;
    return { kind: 'literal', value: JSON.parse(m[0]) as string | number | boolean | null };
  }

  private object(): Pattern {
    this.take('{');
    const members = new Map<string, Pattern>();
    let open = false;
    while (this.peek() !== '}') {
      if (this.peek() === ELLIPSIS) {
        this.at += 1;
        open = true;
      } else {
        const key = this.string();
        this.take(':');
        members.set(key, this.value());
      }
      if (this.peek() !== ',') break;
      this.take(',');
    }
    this.take('}');
    return { kind: 'object', members, open };
  }

  private array(): Pattern {
    this.take('[');
    const items: Pattern[] = [];
    let open = false;
    while (this.peek() !== ']') {
      if (this.peek() === ELLIPSIS) {
        this.at += 1;
        open = true;
      } else {
        items.push(this.value());
      }
      if (this.peek() !== ',') break;
      this.take(',');
    }
    this.take(']');
    return { kind: 'array', items, open };
  }

  end(): void {
    if (this.peek() !== '') this.fail('trailing text');
  }
}

/** Parses one abbreviated JSON document. */
export function parseAbbreviated(text: string): Pattern {
  const reader = new Reader(text);
  const pattern = reader.value();
  reader.end();
  return pattern;
}

/**
 * Where `actual` differs from `pattern`, as `path: what` lines (empty: it matches). `special` decides members whose
 * value differs on every run (a timestamp, a generated key id): for those keys, it is asked instead of comparing.
 */
export function mismatches(
  pattern: Pattern,
  actual: unknown,
  special: Readonly<Record<string, (value: unknown) => boolean>> = {},
  path = '$',
): string[] {
  switch (pattern.kind) {
    case 'any':
      return [];
    case 'literal':
      return Object.is(actual, pattern.value) || actual === pattern.value
        ? []
        : [`${path}: shown ${JSON.stringify(pattern.value)}, got ${JSON.stringify(actual)}`];
    case 'prefix':
      return typeof actual === 'string' && actual.startsWith(pattern.text)
        ? []
        : [`${path}: shown ${JSON.stringify(`${pattern.text}…`)}, got ${JSON.stringify(actual).slice(0, 200)}`];
    case 'array': {
      if (!Array.isArray(actual)) return [`${path}: shown an array, got ${JSON.stringify(actual)}`];
      const out: string[] = [];
      if (pattern.open ? actual.length < pattern.items.length : actual.length !== pattern.items.length) {
        out.push(
          `${path}: shown ${pattern.items.length}${pattern.open ? ' or more' : ''} elements, got ${actual.length}`,
        );
      }
      pattern.items.forEach((item, i) => out.push(...mismatches(item, actual[i], special, `${path}[${i}]`)));
      return out;
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
        return [`${path}: shown an object, got ${JSON.stringify(actual)}`];
      }
      const record = actual as Record<string, unknown>;
      const out: string[] = [];
      for (const [key, member] of pattern.members) {
        const here = `${path}.${key}`;
        if (!Object.hasOwn(record, key)) out.push(`${here}: shown, but missing`);
        else if (Object.hasOwn(special, key)) {
          if (special[key]?.(record[key]) !== true) out.push(`${here}: unexpected ${JSON.stringify(record[key])}`);
        } else out.push(...mismatches(member, record[key], special, here));
      }
      if (!pattern.open) {
        for (const key of Object.keys(record)) {
          if (!pattern.members.has(key)) out.push(`${path}.${key}: returned, but not shown (and no …)`);
        }
      }
      return out;
    }
  }
}
