/**
 * A release scope: one verified release indexed for the guided engine, with every JSON Schema compiled once. Scopes
 * are immutable and hold release content only (never participant data), so the MCP layer caches one per release.
 */
import { SchemaCompiler, digestJson } from '../core/index.js';
import type { CompiledSchema } from '../core/index.js';
import type {
  ArtifactDeclaration,
  AssetEntry,
  AssetKind,
  HostAssetKind,
  Release,
  SchemaEntry,
  StepDefinition,
  ValidatorDefinition,
  WorkflowDefinition,
} from '../registry/model/index.js';
import { compareVersions } from '../registry/model/index.js';

/** `id@version`: the key of versioned entries and of validator receipts. */
export function refKey(id: string, version: string): string {
  return `${id}@${version}`;
}

function assetKey(kind: string, id: string, version: string): string {
  return `${kind}/${id}@${version}`;
}

/** Per-workflow indexes computed once. */
export interface WorkflowIndex {
  readonly workflow: WorkflowDefinition;
  readonly steps: ReadonlyMap<string, StepDefinition>;
  /** Every host asset any step needs (deduplicated, in first-use order): what setup-workspace must deliver. */
  readonly hostAssets: readonly { readonly kind: HostAssetKind; readonly id: string; readonly version: string }[];
  /** Every declared artifact and the step that owns it. */
  readonly artifacts: ReadonlyMap<string, { readonly declaration: ArtifactDeclaration; readonly stepId: string }>;
  /** `validator_id@version` of every validator a step references. */
  readonly validatorKeys: ReadonlySet<string>;
}

export interface ReleaseScope {
  readonly release: Release;
  /** A workflow by exact id and version. */
  workflow(id: string, version: string): WorkflowIndex | undefined;
  /** Versions of the workflow owning `idOrAlias`, newest first (empty when neither an id nor an alias). */
  workflowVersions(idOrAlias: string): readonly WorkflowIndex[];
  asset(kind: AssetKind, id: string, version: string): AssetEntry | undefined;
  validator(id: string, version: string): ValidatorDefinition | undefined;
  schema(id: string, version: string): SchemaEntry | undefined;
  /** The compiled schema (compiled once, when the scope was created). */
  compiled(id: string, version: string): CompiledSchema | undefined;
  /**
   * The same schema compiled with `minLength`/`maxLength` counting UTF-16 units (constant time, no scan). It answers
   * exactly as {@link compiled} for a value none of whose strings or keys holds a surrogate code unit (there both
   * counts agree); use it only for such values.
   */
  compiledSurrogateFree(id: string, version: string): CompiledSchema | undefined;
  /** Digest binding a validator's definition and its brief's content: what a report must name. */
  instructionSha256(id: string, version: string): string | undefined;
}

function indexWorkflow(workflow: WorkflowDefinition): WorkflowIndex {
  const steps = new Map(workflow.steps.map((s) => [s.id, s]));
  const hostAssets: { kind: HostAssetKind; id: string; version: string }[] = [];
  const seen = new Set<string>();
  const artifacts = new Map<string, { declaration: ArtifactDeclaration; stepId: string }>();
  const validatorKeys = new Set<string>();
  for (const step of workflow.steps) {
    for (const a of step.host_assets) {
      const key = assetKey(a.kind, a.id, a.version);
      if (!seen.has(key)) {
        seen.add(key);
        hostAssets.push({ kind: a.kind, id: a.id, version: a.version });
      }
    }
    for (const output of step.outputs) artifacts.set(output.artifact_id, { declaration: output, stepId: step.id });
    for (const v of step.validators) validatorKeys.add(refKey(v.id, v.version));
  }
  return { workflow, steps, hostAssets, artifacts, validatorKeys };
}

/**
 * Indexes a verified release for the guided engine and compiles every schema once. Throws RimthanError
 * ('invalid_schema') if a schema does not compile (a verified release never has one).
 */
export function createReleaseScope(release: Release): ReleaseScope {
  const compiler = new SchemaCompiler();
  const utf16Compiler = new SchemaCompiler({ unicodeLength: false });
  const workflows = new Map<string, WorkflowIndex>();
  const owners = new Map<string, WorkflowIndex[]>();
  for (const workflow of release.workflows) {
    const index = indexWorkflow(workflow);
    workflows.set(refKey(workflow.id, workflow.version), index);
    for (const name of [workflow.id, ...workflow.entry_aliases]) {
      const list = owners.get(name) ?? [];
      if (!list.some((w) => w.workflow.id === workflow.id && w.workflow.version === workflow.version)) list.push(index);
      owners.set(name, list);
    }
  }
  for (const [name, list] of owners) {
    // Authoring validation rejects alias collisions; an ambiguous name still resolves to nothing here.
    if (new Set(list.map((w) => w.workflow.id)).size > 1) owners.set(name, []);
    list.sort((a, b) => compareVersions(b.workflow.version, a.workflow.version));
  }

  const assets = new Map(release.assets.map((a) => [assetKey(a.kind, a.id, a.version), a]));
  const validators = new Map(release.validators.map((v) => [refKey(v.id, v.version), v]));
  const schemas = new Map(release.schemas.map((s) => [refKey(s.id, s.version), s]));
  const compiled = new Map(release.schemas.map((s) => [refKey(s.id, s.version), compiler.compile(s.schema)]));
  const surrogateFree = new Map(release.schemas.map((s) => [refKey(s.id, s.version), utf16Compiler.compile(s.schema)]));
  const instructions = new Map<string, string>();
  for (const v of release.validators) {
    const brief = assets.get(assetKey('validator-brief', v.brief.id, v.brief.version));
    if (brief !== undefined)
      instructions.set(refKey(v.id, v.version), digestJson({ validator: v, brief_sha256: brief.sha256 }));
  }

  return Object.freeze({
    release,
    workflow: (id: string, version: string) => workflows.get(refKey(id, version)),
    workflowVersions: (idOrAlias: string) => owners.get(idOrAlias) ?? [],
    asset: (kind: AssetKind, id: string, version: string) => assets.get(assetKey(kind, id, version)),
    validator: (id: string, version: string) => validators.get(refKey(id, version)),
    schema: (id: string, version: string) => schemas.get(refKey(id, version)),
    compiled: (id: string, version: string) => compiled.get(refKey(id, version)),
    compiledSurrogateFree: (id: string, version: string) => surrogateFree.get(refKey(id, version)),
    instructionSha256: (id: string, version: string) => instructions.get(refKey(id, version)),
  });
}
