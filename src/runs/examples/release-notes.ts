/**
 * `release_notes` v1: release notes from a local Git repository, approved by a person, written once. It reads the
 * commits since a tag, groups them into a draft (kept for review in CHANGELOG.draft.md), pauses for approval, and on
 * approval writes the approved section into CHANGELOG.md exactly once, even when the process crashes mid-write and a
 * restarted one repeats the step. No status or history message carries any input text.
 */
import { rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { defineFlow } from '../flow/define.js';
import type { FlowSpec } from '../flow/types.js';
import { renderReleaseNotes, writeChangelogOnce } from './changelog.js';
import type { Commit } from './changelog.js';
import { git, workTreeIn } from './git.js';

/** Name and version of the flow (what `workflow_run_start` takes as definition_name and definition_version). */
export const RELEASE_NOTES_FLOW = { name: 'release_notes', version: 'v1' } as const;
/** The file beside CHANGELOG.md where a draft waits for review (removed once CHANGELOG.md is written). */
export const DRAFT_FILE = 'CHANGELOG.draft.md';
export const CHANGELOG_FILE = 'CHANGELOG.md';
/** At most this many commits since the tag (more: the step fails with too_many_commits). */
export const MAX_COMMITS = 1000;
/** The largest draft accepted back from CHANGELOG.draft.md after a person edited it. */
const MAX_DRAFT_BYTES = 256 * 1024;

export type ReleaseNotesInput = { repository?: string; since: string; version: string };
export type ReleaseNotesState = {
  /** How many drafts were made (1 after the first). */
  round: number;
  /** Commits in the current draft, and the commit the draft ends at. */
  commits: number;
  head: string;
  /** The drafted section, then the approved one (the draft file as the person left it). */
  notes: string;
  approved: boolean;
  /** The idempotency key of the try that approved: the marker of the one write. */
  write_key: string;
  changelog: 'pending' | 'written' | 'already_written';
};

const FIELD_SEP = '\x1f';
const RECORD_SEP = '\x1e';

/** Commits in `tag..HEAD` without merges, newest first. */
async function commitsSince(
  top: string,
  tag: string,
  signal: AbortSignal,
): Promise<{ commits: Commit[]; head: string }> {
  const base = (
    await git(top, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`], 'tag_not_found', signal)
  ).trim();
  const head = (await git(top, ['rev-parse', '--verify', 'HEAD^{commit}'], 'no_head_commit', signal)).trim();
  const log = await git(
    top,
    [
      'log',
      '--no-merges',
      `--max-count=${MAX_COMMITS + 1}`,
      `--format=%H${FIELD_SEP}%s${FIELD_SEP}%b${RECORD_SEP}`,
      `${base}..${head}`,
    ],
    'git_log_failed',
    signal,
  );
  const commits = log
    .split(RECORD_SEP)
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [sha = '', subject = '', body = ''] = record.split(FIELD_SEP);
      return { sha, subject: subject.trim(), body };
    });
  if (commits.length > MAX_COMMITS) throw new RimthanError('too_many_commits', `more than ${MAX_COMMITS} commits`);
  return { commits, head };
}

/** The date of `head` (its committer date, YYYY-MM-DD): the same on every re-execution, unlike the clock. */
async function commitDate(top: string, head: string, signal: AbortSignal): Promise<string> {
  return (await git(top, ['show', '-s', '--format=%cs', head], 'git_log_failed', signal)).trim();
}

function draftHeader(runId: string, round: number): string {
  return (
    `<!-- Draft ${round} of rimthan run ${runId}. Edit it if you like, then resume the run with {"approved": true}` +
    ` to write it into ${CHANGELOG_FILE}, or {"approved": false} to draft again. -->\n`
  );
}

/** The draft as the person left it (without its header comment), or undefined when the file is gone. */
function readDraft(top: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(top, DRAFT_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (Buffer.byteLength(text) > MAX_DRAFT_BYTES) throw new RimthanError('draft_too_large', 'the draft is too large');
  return text.replace(/^<!-- Draft [^\n]*-->\n/, '');
}

const inputSchema: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['since', 'version'],
  properties: {
    repository: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: 'Git work tree, relative to the server\'s working directory and inside it (default ".")',
    },
    since: {
      type: 'string',
      pattern: '^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9._/+-]{0,127}$',
      description: 'the tag of the previous release; the notes cover the commits after it up to HEAD',
    },
    version: {
      type: 'string',
      pattern: '^v?[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?$',
      maxLength: 64,
      description: 'the version the notes are for (the heading of the new CHANGELOG.md section)',
    },
  },
};

const resumeSchema: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['approved'],
  properties: {
    approved: {
      type: 'boolean',
      description: 'true: write the draft (as CHANGELOG.draft.md holds it now) into CHANGELOG.md; false: draft again',
    },
  },
};

export interface ReleaseNotesOptions {
  /** The folder repositories are resolved against and confined to (the server's working directory). */
  readonly workspace: string;
}

/** The release_notes flow for repositories inside `workspace`. */
export function releaseNotesFlow(options: ReleaseNotesOptions): FlowSpec<ReleaseNotesInput, ReleaseNotesState> {
  const workTree = (input: ReleaseNotesInput, signal: AbortSignal): Promise<string> =>
    workTreeIn(options.workspace, input.repository ?? '.', signal);
  return defineFlow<ReleaseNotesInput, ReleaseNotesState>({
    ...RELEASE_NOTES_FLOW,
    description:
      'Release notes from a local Git repository: groups the commits since a tag into a draft (CHANGELOG.draft.md), ' +
      'waits for approval, then writes them into CHANGELOG.md exactly once.',
    inputSchema,
    resumeSchema,
    initialState: () => ({
      round: 0,
      commits: 0,
      head: '',
      notes: '',
      approved: false,
      write_key: '',
      changelog: 'pending',
    }),
    graph: {
      start: 'draft_notes',
      vertices: {
        draft_notes: {
          label: 'Draft release notes',
          timeoutMs: 60_000,
          run: async ({ input, state, runId, signal }) => {
            const top = await workTree(input, signal);
            const { commits, head } = await commitsSince(top, input.since, signal);
            if (commits.length === 0) throw new RimthanError('no_commits_since_tag', 'no commits since the tag');
            const notes = renderReleaseNotes(input.version, await commitDate(top, head, signal), commits);
            const round = state.round + 1;
            // Overwriting the draft is idempotent: a repeated try writes the same bytes again.
            writeFileSync(join(top, DRAFT_FILE), draftHeader(runId, round) + notes);
            return { round, commits: commits.length, head, notes, approved: false };
          },
          next: 'await_approval',
        },
        await_approval: {
          label: 'Await approval of the draft',
          run: async ({ resume, interrupt, input, state, idempotencyKey, signal }) => {
            if (resume === undefined) {
              return interrupt(
                `review ${DRAFT_FILE} (draft ${state.round}, ${state.commits} commits), then resume with ` +
                  `{"approved": true} to write ${CHANGELOG_FILE} or {"approved": false} to draft again`,
              );
            }
            if (resume['approved'] !== true) return { approved: false };
            const edited = readDraft(await workTree(input, signal));
            // This try's key is recorded with the approval in the checkpoint, before any write: the one write's key.
            return { approved: true, notes: edited ?? state.notes, write_key: idempotencyKey };
          },
          next: (state) => (state.approved ? 'write_changelog' : 'draft_notes'),
          targets: ['write_changelog', 'draft_notes'],
        },
        write_changelog: {
          label: 'Write CHANGELOG.md',
          retry: { attempts: 3, backoffMs: 500 },
          timeoutMs: 30_000,
          run: async ({ input, state, signal }) => {
            const top = await workTree(input, signal);
            const changelog = writeChangelogOnce(
              join(top, CHANGELOG_FILE),
              state.notes,
              state.write_key,
              input.version,
            );
            rmSync(join(top, DRAFT_FILE), { force: true });
            return { changelog };
          },
        },
      },
    },
  });
}
