/**
 * The example flows served by `rimthan serve --profile runs` when no `--flows` module is given: real work a person
 * would keep, showing what durable runs are for (a pause for a human decision that survives restarts, a side effect
 * done exactly once).
 */
import { FlowCatalog } from '../flow/catalog.js';
import { releaseNotesFlow } from './release-notes.js';

export {
  releaseNotesFlow,
  RELEASE_NOTES_FLOW,
  DRAFT_FILE,
  CHANGELOG_FILE,
  MAX_COMMITS,
  type ReleaseNotesInput,
  type ReleaseNotesOptions,
  type ReleaseNotesState,
} from './release-notes.js';
export { renderReleaseNotes, writeChangelogOnce, writeMarker, type Commit } from './changelog.js';

export interface ExampleCatalogOptions {
  /** The folder the flows may read and write below (default: the working directory). */
  readonly workspace?: string;
}

/** A fresh catalog holding the example flows: `release_notes` v1. */
export function exampleCatalog(options: ExampleCatalogOptions = {}): FlowCatalog {
  const catalog = new FlowCatalog();
  catalog.register(releaseNotesFlow({ workspace: options.workspace ?? process.cwd() }));
  return catalog;
}
