/** Authoring validation: every rule over release content, all problems collected and sorted. */
import type { ReleaseContent } from '../content.js';
import { sortProblems } from '../problems.js';
import type { Locator, Problem } from '../problems.js';
import { checkAdapters } from './adapter-rules.js';
import { checkArtifacts } from './artifact-rules.js';
import { checkAliases, checkAssets, checkEntries, checkHeader, checkValidators } from './catalogue-rules.js';
import { Checker } from './context.js';
import { checkSchemas } from './schema-rules.js';
import { checkWorkflows } from './workflow-rules.js';

export { MAX_ARTIFACT_BYTES } from './artifact-rules.js';
export { TYPED_CONTRACT_SINCE, requiresTypedContract } from './adapter-rules.js';
export { SETUP_STEP } from './workflow-rules.js';

export interface ValidateOptions {
  /** Maps sites to file:line; a built release uses a locator naming the entry. */
  readonly locate: Locator;
  /** Entry keys that exist but failed to load (their references are not reported again). */
  readonly unloaded?: ReadonlySet<string>;
  /** False when the registry header did not load (its rules are then skipped). */
  readonly headerLoaded?: boolean;
}

/**
 * Runs every authoring rule over release content and returns all problems, sorted by file and line. Used on
 * sources before a build and again on every release file that is loaded, so a tampered file cannot carry a release
 * the authoring rules would refuse.
 */
export function validateContent(content: ReleaseContent, options: ValidateOptions): Problem[] {
  const c = new Checker(content, options.locate, options.unloaded ?? new Set());
  checkHeader(c, options.headerLoaded ?? true);
  checkEntries(c);
  checkAliases(c);
  checkSchemas(c);
  checkAssets(c);
  checkAdapters(c);
  checkValidators(c);
  checkWorkflows(c);
  checkArtifacts(c);
  return sortProblems(dedupe(c.problems));
}

function dedupe(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}\u0000${p.line}\u0000${p.code}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
