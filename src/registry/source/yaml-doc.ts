/**
 * YAML parsing that keeps line numbers: one document, unique string keys, no anchors/aliases or custom tags (the
 * authoring format is plain data), and a path → line lookup for reporting problems at the right place.
 */
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Document, Node } from 'yaml';
import type { Path } from '../problems.js';

export interface LineError {
  readonly line: number;
  readonly message: string;
}

export interface ParsedYaml {
  /** The document as plain JSON-like data. */
  readonly value: unknown;
  /** 1-based line of the node at `path` (the key line for a mapping member), or of its nearest existing ancestor. */
  readonly lineOf: (path: Path) => number;
}

/** Parses one YAML document; `lineOffset` is added to every line (frontmatter starts below the `---`). */
export function parseYaml(
  text: string,
  lineOffset = 0,
): { ok: true; doc: ParsedYaml } | { ok: false; errors: LineError[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: counter,
    uniqueKeys: true,
    stringKeys: true,
    strict: true,
    prettyErrors: false,
    schema: 'core',
    merge: false,
    logLevel: 'silent',
  });
  const line = (offset: number): number => Math.max(1, counter.linePos(offset).line) + lineOffset;
  const errors: LineError[] = [...doc.errors, ...doc.warnings].map((e) => ({
    line: line(e.pos[0]),
    message: `YAML syntax error (${e.code})`,
  }));
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      errors.push({ line: line(node.range?.[0] ?? 0), message: 'YAML aliases are not allowed' });
    } else if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor !== undefined) {
      errors.push({ line: line(node.range?.[0] ?? 0), message: 'YAML anchors are not allowed' });
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  const value: unknown = doc.toJS({ maxAliasCount: 0 });
  return { ok: true, doc: { value, lineOf: (path) => locate(doc, path, line) } };
}

function locate(doc: Document.Parsed, path: Path, line: (offset: number) => number): number {
  let node: Node | null = doc.contents;
  let best = node?.range?.[0] ?? 0;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
      if (pair === undefined) break;
      best = (pair.key as Node).range?.[0] ?? best;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part] as Node | undefined;
      if (item === undefined) break;
      best = item.range?.[0] ?? best;
      node = item;
    } else {
      break;
    }
  }
  return line(best);
}
