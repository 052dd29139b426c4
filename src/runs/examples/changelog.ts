/**
 * Release notes for the release_notes example: commits grouped the Conventional Commits way into a Markdown
 * section, and the one write of that section into CHANGELOG.md. The write is exactly-once across crashes: the section
 * carries a marker with the idempotency key of the approving try, recorded in the run's checkpoint before the write
 * begins, and a CHANGELOG.md that already holds the marker is left alone.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RimthanError } from '../../core/errors.js';

export interface Commit {
  readonly sha: string;
  readonly subject: string;
  readonly body: string;
}

/** Section headings in the order they appear, by Conventional Commits type. */
const GROUPS: readonly { readonly title: string; readonly types: readonly string[] }[] = [
  { title: 'Features', types: ['feat'] },
  { title: 'Fixes', types: ['fix'] },
  { title: 'Performance', types: ['perf'] },
  { title: 'Documentation', types: ['docs'] },
];
const BREAKING = 'Breaking changes';
const OTHER = 'Other changes';
const CONVENTIONAL = /^([a-z]+)(?:\(([^)]{1,64})\))?(!)?:\s+(.+)$/i;
const MAX_SUBJECT_CHARS = 300;

/** The bullet of one commit: its subject without the type prefix, the scope in bold, the short hash. */
function bullet(scope: string | undefined, text: string, sha: string): string {
  const subject = text.length > MAX_SUBJECT_CHARS ? `${text.slice(0, MAX_SUBJECT_CHARS - 1)}…` : text;
  return `- ${scope === undefined ? '' : `**${scope}:** `}${subject} (${sha.slice(0, 7)})`;
}

/**
 * The Markdown section for `version` dated `date` (YYYY-MM-DD): breaking changes first (`type!:` or a
 * `BREAKING CHANGE:` footer), then features, fixes, performance, documentation, and every other commit last.
 */
export function renderReleaseNotes(version: string, date: string, commits: readonly Commit[]): string {
  const groups = new Map<string, string[]>();
  const add = (title: string, line: string): void => {
    groups.set(title, [...(groups.get(title) ?? []), line]);
  };
  for (const c of commits) {
    const m = CONVENTIONAL.exec(c.subject);
    const type = m?.[1]?.toLowerCase();
    const line = m === null ? bullet(undefined, c.subject, c.sha) : bullet(m[2], m[4] ?? '', c.sha);
    if (m?.[3] === '!' || /^BREAKING[ -]CHANGE:/m.test(c.body)) add(BREAKING, line);
    else add(GROUPS.find((g) => type !== undefined && g.types.includes(type))?.title ?? OTHER, line);
  }
  const order = [BREAKING, ...GROUPS.map((g) => g.title), OTHER];
  const sections = order.flatMap((title) => {
    const lines = groups.get(title);
    return lines === undefined ? [] : [`### ${title}`, '', ...lines, ''];
  });
  return [`## ${version} (${date})`, '', ...sections].join('\n').trimEnd() + '\n';
}

/** The marker a written section carries: the idempotency key of the try that approved it. */
export function writeMarker(key: string): string {
  return `<!-- rimthan release_notes ${key} -->`;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces `path` with `text` atomically: a synced temporary file renamed over it, then the folder synced. */
function replaceFile(path: string, text: string): void {
  const temp = join(dirname(path), `.${randomUUID()}.rimthan-tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Puts `notes` at the top of the changelog at `path` (below its `# ` title, which a new file gets), marked with
 * `key`, unless a section with that marker is there already: then nothing is written ('already_written'). A section
 * for `version` written by anything else is refused (`version_in_changelog`): a release is noted once.
 */
export function writeChangelogOnce(
  path: string,
  notes: string,
  key: string,
  version: string,
): 'written' | 'already_written' {
  const existing = readText(path) ?? '';
  const marker = writeMarker(key);
  if (existing.includes(marker)) return 'already_written';
  const bare = version.replace(/^v/, '');
  if (new RegExp(`^##\\s+v?${escapeRegExp(bare)}(?:\\s|$)`, 'm').test(existing)) {
    throw new RimthanError('version_in_changelog', 'CHANGELOG.md already has a section for this version');
  }
  const section = `${marker}\n${notes.trimEnd()}\n`;
  const title = /^# .*\n+/.exec(existing);
  const text =
    existing === ''
      ? `# Changelog\n\n${section}`
      : title === null
        ? `${section}\n${existing}`
        : `${title[0]}${section}\n${existing.slice(title[0].length)}`;
  replaceFile(path, text);
  return 'written';
}
