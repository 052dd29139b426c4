/** Markdown assets: a `---` YAML frontmatter block, then the body (the asset content, kept byte for byte). */

export interface MarkdownParts {
  /** The YAML text between the fences. */
  readonly frontmatter: string;
  /** Line number (1-based) of the first frontmatter line, for reporting. */
  readonly frontmatterLine: number;
  /** Everything after the closing fence line. */
  readonly body: string;
  /** Line number (1-based) where the body starts. */
  readonly bodyLine: number;
}

const FENCE = /^---[ \t]*\r?$/;

/** Splits frontmatter from body; undefined when the file does not open with a closed `---` block. */
export function splitFrontmatter(text: string): MarkdownParts | undefined {
  const lines = text.split('\n');
  if (lines.length < 2 || !FENCE.test(lines[0] ?? '')) return undefined;
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close < 0) return undefined;
  return {
    frontmatter: lines.slice(1, close).join('\n'),
    frontmatterLine: 2,
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
  };
}
