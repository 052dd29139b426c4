/**
 * The barrier of a parallel step: the branches' partial updates fold into the state the step started from, in the
 * step's slot order (never completion order), each write of a key with a reducer going through it. Two branches
 * writing a key without a reducer, or a branch writing outside its declared `writes`, is refused: the merge would
 * otherwise depend on which write wins.
 */
import type { JsonObject } from '../../core/json.js';
import { applyWrite, freezeState, type MergeResult, type Reducers } from './state-update.js';

/** One branch's contribution to the barrier. */
export interface BranchWrite {
  readonly vertex: string;
  readonly update: JsonObject;
  /** The keys the vertex declared it writes (undefined: not declared). */
  readonly writes: ReadonlySet<string> | undefined;
}

/** Merges the branches' updates into `base` in the given (slot) order. */
export function mergeBranches(base: JsonObject, branches: readonly BranchWrite[], reducers: Reducers): MergeResult {
  const merged: Record<string, unknown> = { ...base };
  const writtenBy = new Map<string, string>();
  for (const branch of branches) {
    for (const [key, value] of Object.entries(branch.update)) {
      const name = JSON.stringify(key);
      if (branch.writes !== undefined && !branch.writes.has(key)) {
        return { ok: false, reason: `branch ${branch.vertex} wrote state key ${name} outside its writes` };
      }
      const earlier = writtenBy.get(key);
      if (earlier !== undefined && !reducers.has(key)) {
        return {
          ok: false,
          reason: `branches ${earlier} and ${branch.vertex} both wrote state key ${name}, which has no reducer`,
        };
      }
      if (!applyWrite(merged, key, value, reducers)) {
        return { ok: false, reason: `the reducer of state key ${name} threw` };
      }
      writtenBy.set(key, branch.vertex);
    }
  }
  return freezeState(merged);
}
