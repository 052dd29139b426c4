/**
 * Project-relative path rules for declared artifact paths and host-adapter project-local templates: relative,
 * normalised POSIX, never inside a version-control or Rimthan state folder.
 */

/** Folder names a declared path may never enter (compared case-insensitively, at any depth). */
export const RESERVED_ROOTS: readonly string[] = ['.git', '.hg', '.svn', '.rimthan'];

export const MAX_PATH_LENGTH = 512;

/** Why a path is not a safe project-relative POSIX path, or undefined when it is. */
export function projectPathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes('\\')) return 'contains a backslash';
  if ([...path].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\u007f')) return 'contains a control character';
  if (path.startsWith('/')) return 'is absolute';
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '') return 'has an empty segment';
    if (segment === '.' || segment === '..') return 'has a "." or ".." segment';
    if (RESERVED_ROOTS.includes(segment.toLowerCase())) return 'lies under a reserved folder';
  }
  return undefined;
}

const PLACEHOLDER = '{asset_id}';

/**
 * Why a project-local path template is unusable, or undefined when it holds exactly one `{asset_id}`, no other
 * placeholder, and expands to a safe project path.
 */
export function pathTemplateProblem(template: string): string | undefined {
  const parts = template.split(PLACEHOLDER);
  if (parts.length !== 2) return 'must contain exactly one {asset_id} placeholder';
  if (/[{}]/.test(parts.join(''))) return 'contains an unresolved placeholder';
  const expanded = template.replace(PLACEHOLDER, 'asset-id');
  const problem = projectPathProblem(expanded);
  return problem === undefined ? undefined : `expands to a path that ${problem}`;
}
