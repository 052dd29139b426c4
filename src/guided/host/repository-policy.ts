/**
 * Repository policy: the harness reports whether system, user, repository or host policy conflicts with the
 * workflow's writes, and which project paths policy protects. Any declared write inside a protected path conflicts.
 */
import type { RepositoryPolicy } from './declaration.js';

function normalise(path: string): string {
  return path.replace(/\/+$/, '');
}

/** True when `path` is `protectedPath` or lies below it. */
export function isWithin(path: string, protectedPath: string): boolean {
  const root = normalise(protectedPath);
  return root.length > 0 && (path === root || path.startsWith(`${root}/`));
}

/**
 * The conflicts policy raises against the paths the workflow would write: `{}` for a declared conflict, `{path}` per
 * planned write inside a protected path. Empty when the policy allows every write.
 */
export function policyConflicts(policy: RepositoryPolicy, plannedWrites: readonly string[]): { path?: string }[] {
  const conflicts: { path?: string }[] = [];
  if (policy.conflict) conflicts.push({});
  const protectedPaths = policy.protected_paths ?? [];
  for (const path of [...new Set(plannedWrites)].sort()) {
    if (protectedPaths.some((p) => isWithin(path, p))) conflicts.push({ path });
  }
  return conflicts;
}
