/**
 * A small closed-shape reader: checks JSON types and keys of one release entry and records every issue with its site,
 * so a loader can report all problems at once. Failed reads return a neutral placeholder; callers check
 * {@link ShapeReader.failedSince} before using the decoded value.
 */
import { isJsonObject } from '../../core/index.js';
import type { JsonObject, JsonValue } from '../../core/index.js';
import { ProblemCode, quoted } from '../problems.js';
import type { Path, Site } from '../problems.js';

export interface ShapeIssue {
  readonly site: Site;
  readonly code: ProblemCode;
  readonly message: string;
}

/** Renders a path as `steps[2].branches[0].to` (keys sanitised). */
export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += (out === '' ? '' : '.') + quoted(part).slice(1, -1);
  }
  return out === '' ? 'the document' : out;
}

function where(path: Path): string {
  return path.length === 0 ? '' : ` in ${formatPath(path)}`;
}

/** Reads one entry's JSON against a closed shape, recording issues instead of stopping at the first. */
export class ShapeReader {
  readonly #entry: string;
  readonly #sink: ShapeIssue[];

  constructor(entry: string, sink: ShapeIssue[]) {
    this.#entry = entry;
    this.#sink = sink;
  }

  /** A marker to compare against with {@link failedSince}. */
  mark(): number {
    return this.#sink.length;
  }

  /** True when an issue was recorded after `mark`. */
  failedSince(mark: number): boolean {
    return this.#sink.length > mark;
  }

  report(path: Path, code: ProblemCode, message: string): void {
    this.#sink.push({ site: { entry: this.#entry, path }, code, message });
  }

  /** A mapping with exactly the allowed keys; missing required keys and unknown keys are reported. */
  object(value: unknown, path: Path, required: readonly string[], optional: readonly string[] = []): JsonObject {
    if (value === undefined) return {};
    if (!isJsonObject(value)) {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be a mapping`);
      return {};
    }
    for (const key of Object.keys(value)) {
      if (!required.includes(key) && !optional.includes(key)) {
        this.report([...path, key], ProblemCode.UnknownKey, `unknown key ${quoted(key)}${where(path)}`);
      }
    }
    for (const key of required) {
      if (!Object.hasOwn(value, key)) {
        this.report(path, ProblemCode.MissingKey, `missing key ${quoted(key)}${where(path)}`);
      }
    }
    return value;
  }

  /** A string (optionally non-empty and bounded in length). */
  string(value: unknown, path: Path, opts: { nonEmpty?: boolean; max?: number } = {}): string {
    if (value === undefined) return '';
    if (typeof value !== 'string') {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be a string`);
      return '';
    }
    if (opts.nonEmpty === true && value.trim() === '') {
      this.report(path, ProblemCode.InvalidValue, `${formatPath(path)} must not be empty`);
    } else if (opts.max !== undefined && value.length > opts.max) {
      this.report(path, ProblemCode.InvalidValue, `${formatPath(path)} is longer than ${opts.max} characters`);
    }
    return value;
  }

  boolean(value: unknown, path: Path): boolean {
    if (value === undefined) return false;
    if (typeof value !== 'boolean') {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be true or false`);
      return false;
    }
    return value;
  }

  /** A safe integer (range rules belong to validation). */
  integer(value: unknown, path: Path): number {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be an integer`);
      return 0;
    }
    return value;
  }

  /** A string, finite number or boolean (branch literals, question option values). */
  scalar(value: unknown, path: Path): string | number | boolean {
    if (value === undefined) return '';
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be a string, number or boolean`);
    return '';
  }

  /** One of a closed set of words. */
  oneOf<T extends string>(value: unknown, path: Path, allowed: readonly T[], what: string): T {
    if (value === undefined) return allowed[0] as T;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.report(path, ProblemCode.InvalidValue, `${formatPath(path)} is not a known ${what}`);
      return allowed[0] as T;
    }
    return value as T;
  }

  /** An array whose items are each decoded by `item`. */
  array<T>(value: unknown, path: Path, item: (value: JsonValue, path: Path) => T): T[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be a list`);
      return [];
    }
    return (value as JsonValue[]).map((v, i) => item(v, [...path, i]));
  }

  /** An array of strings. */
  strings(value: unknown, path: Path): string[] {
    return this.array(value, path, (v, p) => this.string(v, p, { nonEmpty: true }));
  }

  /** An array of words from a closed set. */
  words<T extends string>(value: unknown, path: Path, allowed: readonly T[], what: string): T[] {
    return this.array(value, path, (v, p) => this.oneOf(v, p, allowed, what));
  }

  /** A plain JSON object kept as-is (schema documents). */
  json(value: unknown, path: Path): JsonObject {
    if (value === undefined) return {};
    if (!isJsonObject(value)) {
      this.report(path, ProblemCode.InvalidType, `${formatPath(path)} must be a JSON object`);
      return {};
    }
    return value;
  }
}
