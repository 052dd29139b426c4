/**
 * Strict JSON with line numbers for schema source files. A small recursive-descent scanner finds where a syntax
 * error is and where each member lies; the core strict parser stays the authority on what is accepted.
 */
import { parseStrictJson } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import type { Path } from '../problems.js';
import type { LineError, ParsedYaml } from './yaml-doc.js';

/** Deepest nesting allowed in a schema source (a release file wraps it in three more levels). */
export const MAX_SCHEMA_DEPTH = 48;

class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/** Parses a JSON document strictly; on failure reports the line of the first error. */
export function parseJsonWithLines(text: string): { ok: true; doc: ParsedYaml } | { ok: false; errors: LineError[] } {
  const starts = lineStarts(text);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const lines = new Map<string, number>();
  try {
    const end = scanValue(text, skipWs(text, 0), [], 0, lines, lineAt);
    if (skipWs(text, end) !== text.length)
      throw new ScanError(skipWs(text, end), 'unexpected content after the document');
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    return { ok: false, errors: [{ line: lineAt(e.offset), message: `invalid JSON: ${e.why}` }] };
  }
  const parsed = parseStrictJson(text, { maxDepth: MAX_SCHEMA_DEPTH + 1 });
  if (!parsed.ok) return { ok: false, errors: [{ line: 1, message: `invalid JSON: ${parsed.reason}` }] };
  const value: JsonValue = parsed.value;
  const lineOf = (path: Path): number => {
    for (let n = path.length; n > 0; n--) {
      const line = lines.get(pathKey(path.slice(0, n)));
      if (line !== undefined) return line;
    }
    return 1;
  };
  return { ok: true, doc: { value, lineOf } };
}

/** Map key of a path; indices and keys compare as strings (JSON pointers carry indices as text). */
function pathKey(path: Path): string {
  return JSON.stringify(path.map(String));
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
  return starts;
}

function skipWs(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i] as string)) i++;
  return i;
}

type LineAt = (offset: number) => number;

function scanValue(
  text: string,
  i: number,
  path: Path,
  depth: number,
  lines: Map<string, number>,
  lineAt: LineAt,
): number {
  if (depth > MAX_SCHEMA_DEPTH) throw new ScanError(i, 'nesting is too deep');
  const c = text[i];
  if (c === '{' || c === '[') return scanContainer(text, i, path, depth, lines, lineAt);
  if (c === '"') return scanString(text, i).end;
  for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return i + word.length;
  const num = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
  if (num !== null && num[0] !== '') return i + num[0].length;
  throw new ScanError(i, i >= text.length ? 'unexpected end of input' : 'unexpected character');
}

function scanContainer(
  text: string,
  start: number,
  path: Path,
  depth: number,
  lines: Map<string, number>,
  lineAt: LineAt,
): number {
  const isObject = text[start] === '{';
  const close = isObject ? '}' : ']';
  const seen = new Set<string>();
  let i = skipWs(text, start + 1);
  if (text[i] === close) return i + 1;
  for (let index = 0; ; index++) {
    let childPath: Path = [...path, index];
    if (isObject) {
      if (text[i] !== '"') throw new ScanError(i, 'expected a member name');
      const key = scanString(text, i);
      if (seen.has(key.value)) throw new ScanError(i, 'duplicate member name');
      seen.add(key.value);
      childPath = [...path, key.value];
      lines.set(pathKey(childPath), lineAt(i));
      i = skipWs(text, key.end);
      if (text[i] !== ':') throw new ScanError(i, 'expected ":"');
      i = skipWs(text, i + 1);
    } else {
      lines.set(pathKey(childPath), lineAt(i));
    }
    i = skipWs(text, scanValue(text, i, childPath, depth + 1, lines, lineAt));
    if (text[i] === close) return i + 1;
    if (text[i] !== ',') throw new ScanError(i, `expected "," or "${close}"`);
    i = skipWs(text, i + 1);
  }
}

function scanString(text: string, start: number): { end: number; value: string } {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const raw = text.slice(start, i + 1);
      try {
        return { end: i + 1, value: JSON.parse(raw) as string };
      } catch {
        throw new ScanError(start, 'invalid string');
      }
    }
    if (c < 0x20) throw new ScanError(i, 'control character in string');
    i += c === 0x5c ? 2 : 1;
  }
  throw new ScanError(start, 'unterminated string');
}
