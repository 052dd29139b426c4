/**
 * The host-neutral bootstrap paragraph. Its one source is the marked section of
 * docs/operations/workflow-engine-bootstrap.md, read when the profile is built, so the operations document, the
 * `rimthan.start_workflow` prompt and the rimthan://bootstrap/agent-entrypoint resource always say the same thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RimthanError } from '../../core/index.js';
import { packageRoot } from '../../package/index.js';

export const BOOTSTRAP_DOCUMENT = 'docs/operations/workflow-engine-bootstrap.md';
export const BOOTSTRAP_BEGIN = '<!-- rimthan:bootstrap-paragraph:begin -->';
export const BOOTSTRAP_END = '<!-- rimthan:bootstrap-paragraph:end -->';

/** Extracts the marked paragraph from the document text; throws `bootstrap_unavailable` when the markers are missing. */
export function extractBootstrapParagraph(markdown: string): string {
  const begin = markdown.indexOf(BOOTSTRAP_BEGIN);
  const end = markdown.indexOf(BOOTSTRAP_END);
  if (begin < 0 || end < begin) {
    throw new RimthanError('bootstrap_unavailable', `${BOOTSTRAP_DOCUMENT} has no marked bootstrap paragraph`);
  }
  const text = markdown.slice(begin + BOOTSTRAP_BEGIN.length, end).trim();
  if (text === '')
    throw new RimthanError('bootstrap_unavailable', `${BOOTSTRAP_DOCUMENT}: the bootstrap paragraph is empty`);
  return text;
}

/** Reads the bootstrap paragraph from the packaged operations document (or from `path`). */
export function loadBootstrapParagraph(path: string = join(packageRoot(), BOOTSTRAP_DOCUMENT)): string {
  let markdown: string;
  try {
    markdown = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RimthanError('bootstrap_unavailable', `cannot read ${BOOTSTRAP_DOCUMENT}`, { cause: error });
  }
  return extractBootstrapParagraph(markdown);
}
