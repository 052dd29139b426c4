/**
 * The difference between two releases: manifest entries (workflows, assets, validators, schemas) added, removed or
 * changed; per workflow, the steps that changed between its newest versions; and what a migration from each workflow
 * version of the first release to the second would do. The migration facts come from the guided engine's own
 * migration checks and preview (resolveMigrationTarget, migrationFacts), not from a copy of their rules.
 */
import { canonicalJson } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import { createReleaseScope, migrationFacts, refKey, resolveMigrationTarget } from '../../guided/index.js';
import type { ReleaseScope } from '../../guided/index.js';
import { compareVersions } from '../../registry/index.js';
import type { Release, StepDefinition, WorkflowDefinition } from '../../registry/index.js';
import type { DiffAnswer, EntryChange, MigrationView, StepChange, WorkflowDiffView } from '../api-types.js';

type Versions = Map<string, string>;

function entryGroups(release: Release): Map<string, { type: string; key: string; versions: Versions }> {
  const groups = new Map<string, { type: string; key: string; versions: Versions }>();
  for (const e of release.manifest.entries) {
    const id = `${e.type}\u0000${e.key}`;
    const group = groups.get(id) ?? { type: e.type, key: e.key, versions: new Map<string, string>() };
    group.versions.set(e.version, e.sha256);
    groups.set(id, group);
  }
  return groups;
}

const sortedVersions = (v: Versions | undefined): string[] => [...(v?.keys() ?? [])].sort(compareVersions);

function entryChanges(from: Release, to: Release): DiffAnswer['entries'] {
  const a = entryGroups(from);
  const b = entryGroups(to);
  const added: EntryChange[] = [];
  const removed: EntryChange[] = [];
  const changed: EntryChange[] = [];
  for (const id of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const left = a.get(id);
    const right = b.get(id);
    const base = left ?? right;
    if (base === undefined) continue;
    const rewritten = [...(left?.versions ?? [])]
      .filter(([version, sha]) => right?.versions.has(version) === true && right.versions.get(version) !== sha)
      .map(([version]) => version);
    const change = {
      type: base.type,
      key: base.key,
      from: sortedVersions(left?.versions),
      to: sortedVersions(right?.versions),
      rewritten,
    };
    if (left === undefined) added.push(change);
    else if (right === undefined) removed.push(change);
    else if (rewritten.length > 0 || change.from.join() !== change.to.join()) changed.push(change);
  }
  return { added, removed, changed };
}

function newest(release: Release, id: string): WorkflowDefinition | undefined {
  return release.workflows.filter((w) => w.id === id).sort((x, y) => compareVersions(y.version, x.version))[0];
}

/** What a step's change can be in; each picks plain JSON out of the (JSON-only) release model. */
const ASPECTS: readonly [string, (s: StepDefinition) => unknown][] = [
  ['title', (s) => s.title],
  ['instruction', (s) => s.instruction],
  ['host assets', (s) => s.host_assets],
  ['inputs', (s) => s.inputs],
  ['outputs', (s) => s.outputs],
  ['validators', (s) => s.validators],
  ['transitions', (s) => ({ next: s.next ?? null, branches: s.branches ?? [] })],
  ['question', (s) => s.question ?? null],
];

function stepChanges(
  from: WorkflowDefinition | undefined,
  to: WorkflowDefinition | undefined,
): WorkflowDiffView['steps'] {
  const a = new Map((from?.steps ?? []).map((s) => [s.id, s]));
  const b = new Map((to?.steps ?? []).map((s) => [s.id, s]));
  const changed: StepChange[] = [];
  for (const [id, left] of a) {
    const right = b.get(id);
    if (right === undefined) continue;
    const aspects = ASPECTS.filter(
      ([, pick]) => canonicalJson(pick(left) as JsonValue) !== canonicalJson(pick(right) as JsonValue),
    );
    if (aspects.length > 0) changed.push({ id, aspects: aspects.map(([name]) => name) });
  }
  return {
    added: [...b.keys()].filter((id) => !a.has(id)),
    removed: [...a.keys()].filter((id) => !b.has(id)),
    changed,
  };
}

function workflowDiffs(from: Release, to: Release): WorkflowDiffView[] {
  const ids = [...new Set([...from.workflows, ...to.workflows].map((w) => w.id))].sort();
  return ids.map((id) => {
    const left = newest(from, id);
    const right = newest(to, id);
    return {
      id,
      from_version: left?.version ?? null,
      to_version: right?.version ?? null,
      steps: stepChanges(left, right),
    };
  });
}

function migration(from: Release, source: WorkflowDefinition, target: ReleaseScope): MigrationView {
  const candidate = newest(target.release, source.id);
  const resolved = resolveMigrationTarget(
    { registry_release: from.release, workflow: { id: source.id, version: source.version } },
    target,
    candidate?.version ?? source.version,
  );
  const harnesses = [
    ...new Set([...Object.keys(source.host_adapters), ...Object.keys(candidate?.host_adapters ?? {})]),
  ];
  const host_adapters = harnesses.sort().map((harness) => {
    const pinned = (w: WorkflowDefinition | undefined): { id: string; version: string } | null => {
      const ref = w?.host_adapters[harness as keyof WorkflowDefinition['host_adapters']];
      return ref === undefined ? null : { id: ref.id, version: ref.version };
    };
    return { harness, from: pinned(source), to: pinned(candidate) };
  });
  const base = {
    workflow: source.id,
    from_version: source.version,
    to_version: candidate?.version ?? null,
    host_adapters,
  };
  if (!resolved.ok) {
    return {
      ...base,
      refusal: { reason: resolved.reason, message: resolved.message },
      restart_step: null,
      invalidated_artifacts: [],
      invalidated_validators: [],
      reconfirm_schema: null,
    };
  }
  // Every receipt a checkpoint of the source version can hold: the preview invalidates whichever it holds.
  const facts = migrationFacts(target, resolved.index, {
    artifacts: source.steps.flatMap((s) => s.outputs.map((o) => o.artifact_id)),
    validators: source.steps.flatMap((s) => s.validators.map((v) => refKey(v.id, v.version))),
  });
  const schema = resolved.index.workflow.confirmed_state_schema;
  return {
    ...base,
    refusal: null,
    restart_step: facts.target.step,
    invalidated_artifacts: facts.invalidated_artifacts,
    invalidated_validators: facts.invalidated_validators,
    reconfirm_schema: { id: schema.id, version: schema.version },
  };
}

/** Builds release scopes (every schema compiled once) and keeps the last few, as the server's scope cache does. */
export class ScopeCache {
  readonly #scopes = new Map<string, ReleaseScope>();
  constructor(private readonly max = 8) {}

  scopeOf(release: Release): ReleaseScope {
    const key = `${release.release}\u0000${release.manifest_sha256}`;
    const cached = this.#scopes.get(key);
    if (cached !== undefined) {
      this.#scopes.delete(key);
      this.#scopes.set(key, cached);
      return cached;
    }
    const scope = createReleaseScope(release);
    this.#scopes.set(key, scope);
    for (const old of this.#scopes.keys()) {
      if (this.#scopes.size <= this.max) break;
      this.#scopes.delete(old);
    }
    return scope;
  }
}

/** The diff of `from` → `to`. */
export function releaseDiff(from: Release, to: Release, scopes: ScopeCache): DiffAnswer {
  const target = scopes.scopeOf(to);
  return {
    from: from.release,
    to: to.release,
    entries: entryChanges(from, to),
    workflows: workflowDiffs(from, to),
    migrations: from.workflows.map((w) => migration(from, w, target)),
  };
}
