/**
 * Just enough Markdown for the docs checks: fenced code blocks, inline code, relative links, GitHub heading anchors,
 * `rimthan` command lines and TypeScript import declarations. Line-based and dependency-free.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface CodeBlock {
  readonly lang: string;
  /** The whole info string after the fence (`sh background`: language and words after it). */
  readonly info: string;
  readonly body: string;
}

const FENCE = /^(`{3,}|~{3,})[ \t]*([^\n]*)\n([\s\S]*?)^\1[ \t]*$/gm;
const INLINE_CODE = /`[^`\n]+`/g;

/** Every Markdown file below `dir` (recursive, sorted), as absolute paths. */
export function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** The fenced code blocks of a document, with their info-string language. */
export function codeBlocks(markdown: string): CodeBlock[] {
  return [...markdown.matchAll(FENCE)].map((m) => ({
    lang: (m[2] ?? '').trim().split(/\s+/)[0] ?? '',
    info: (m[2] ?? '').trim(),
    body: m[3] ?? '',
  }));
}

/** The document without fenced blocks (each replaced by a blank line) and without inline code spans. */
export function prose(markdown: string): string {
  return markdown.replace(FENCE, '\n').replace(INLINE_CODE, ' ');
}

/** Every piece of code in a document: fenced block bodies and inline code spans. */
export function codeTexts(markdown: string): string[] {
  const spans = [...markdown.replace(FENCE, '\n').matchAll(INLINE_CODE)].map((m) => m[0].slice(1, -1));
  return [...codeBlocks(markdown).map((b) => b.body), ...spans];
}

/** The targets of inline links and images outside code (`[text](target)`), as written. */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

/** GitHub's anchor for a heading text: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a document's headings define (duplicates numbered -1, -2, … as GitHub does). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(FENCE, '\n').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** One `rimthan <command> [<subcommand>] [--flags…]` invocation found in code. */
export interface CommandMention {
  readonly command: string;
  /** The second word when it is a bare lowercase word (a subcommand or a positional argument). */
  readonly subcommand: string | undefined;
  readonly flags: readonly string[];
  readonly line: string;
}

const INVOCATION =
  /(?<![\w./@-])(?:rimthan|main\.js)[ \t]+([a-z][a-z-]*)(?=[\s`'"]|$)(?:[ \t]+([a-z][a-z|-]*)(?=[\s`'"]|$))?/g;

/**
 * `rimthan …` (or `… main.js …`) invocations in code, with the long options on the same logical line. Shell comments
 * are ignored; `list|get` style alternatives come back as one mention per alternative.
 */
export function commandMentions(code: string): CommandMention[] {
  const out: CommandMention[] = [];
  for (const raw of code.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.replace(/(^|\s)#\s.*$/, '');
    for (const m of line.matchAll(INVOCATION)) {
      const rest = line.slice((m.index ?? 0) + m[0].length);
      const flags = [...rest.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((f) => f[0]);
      for (const subcommand of m[2] === undefined ? [undefined] : m[2].split('|')) {
        out.push({ command: m[1] ?? '', subcommand, flags, line: line.trim() });
      }
    }
  }
  return out;
}

/** One `import … from 'specifier'` of a TypeScript block: value and type-only names. */
export interface ImportDeclaration {
  readonly specifier: string;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** The import declarations of TypeScript source (named imports only; that is all the docs use). */
export function importDeclarations(source: string): ImportDeclaration[] {
  const out: ImportDeclaration[] = [];
  for (const m of source.matchAll(/^import\s+(type\s+)?(?:\{([^}]*)\}\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const allTypes = m[1] !== undefined;
    const values: string[] = [];
    const types: string[] = [];
    for (const raw of (m[2] ?? '').split(',')) {
      const item = raw.trim();
      if (item === '') continue;
      const typeOnly = allTypes || item.startsWith('type ');
      const name = item.replace(/^type\s+/, '').split(/\s+as\s+/)[0] ?? '';
      (typeOnly ? types : values).push(name);
    }
    out.push({ specifier: m[3] ?? '', values, types });
  }
  return out;
}

/**
 * The words of a shell command as POSIX sh splits them, for the quoting the docs use: single quotes, double quotes
 * (with `\` escaping `"`, `\`, `$` and a backtick), backslash escapes and backslash-newline continuations; no
 * expansion.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const text = command.replace(/\\\n/g, ' ');
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error('unbalanced single quote');
      word = (word ?? '') + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let part = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && /["\\$`]/.test(text[j + 1] ?? '')) j++;
        part += text[j] ?? '';
        j++;
      }
      if (j >= text.length) throw new Error('unbalanced double quote');
      word = (word ?? '') + part;
      i = j + 1;
    } else if (c === '\\') {
      word = (word ?? '') + (text[i + 1] ?? '');
      i += 2;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
