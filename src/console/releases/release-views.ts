/**
 * Release content as the console shows it: the release list with its channels, one release's workflows, a workflow
 * version as a graph with its host adapters, and a step with its instruction, outputs and their schemas, and
 * validators with their briefs. Everything comes from a verified release; nothing here reads participant data.
 */
import type { AssetEntry, Release, StepDefinition, WorkflowDefinition } from '../../registry/index.js';
import { AssetKind, predicateLabel, workflowGraph } from '../../registry/index.js';
import type {
  AssetView,
  ChannelName,
  GraphView,
  HostAdapterView,
  ReleaseAnswer,
  SchemaView,
  StepAnswer,
  ValidatorView,
  WorkflowAnswer,
} from '../api-types.js';
import type { ConsoleChannels } from './release-store.js';

/** The channels naming `release`. */
export function channelsOf(release: string, channels: ConsoleChannels): ChannelName[] {
  const names: ChannelName[] = [];
  if (channels.active === release) names.push('active');
  if (channels.migration_target === release) names.push('migration-target');
  return names;
}

function assetOf(release: Release, kind: string, id: string, version: string): AssetEntry | undefined {
  return release.assets.find((a) => a.kind === kind && a.id === id && a.version === version);
}

function assetView(asset: AssetEntry | undefined): AssetView | null {
  if (asset === undefined) return null;
  return {
    kind: asset.kind,
    id: asset.id,
    version: asset.version,
    title: asset.title,
    description: asset.description,
    sha256: asset.sha256,
    content: asset.content,
  };
}

function schemaView(release: Release, id: string, version: string): SchemaView | null {
  const entry = release.schemas.find((s) => s.id === id && s.version === version);
  return entry === undefined ? null : { id, version, sha256: entry.sha256, schema: entry.schema };
}

/** A workflow in `release` by exact id and version. */
export function findWorkflow(release: Release, id: string, version: string): WorkflowDefinition | undefined {
  return release.workflows.find((w) => w.id === id && w.version === version);
}

/** The workflow's steps and transitions, for drawing. */
export function graphView(workflow: WorkflowDefinition): GraphView {
  const graph = workflowGraph(workflow);
  return { start: workflow.start_step, nodes: graph.nodes, edges: graph.edges };
}

export function releaseAnswer(release: Release, channels: ConsoleChannels): ReleaseAnswer {
  return {
    release: release.release,
    registry_id: release.registry_id,
    manifest_sha256: release.manifest_sha256,
    channels: channelsOf(release.release, channels),
    workflows: release.workflows.map((w) => ({
      id: w.id,
      version: w.version,
      title: w.title,
      description: w.description,
      steps: w.steps.length,
    })),
    entries: release.manifest.entries.map((e) => ({ type: e.type, key: e.key, version: e.version, sha256: e.sha256 })),
  };
}

function hostAdapters(release: Release, workflow: WorkflowDefinition): HostAdapterView[] {
  return Object.entries(workflow.host_adapters).flatMap(([harness, ref]) => {
    if (ref === undefined) return [];
    const asset = assetOf(release, AssetKind.HostAdapter, ref.id, ref.version);
    const contract = asset?.adapter?.adapter_contract;
    return [
      {
        harness,
        id: ref.id,
        version: ref.version,
        title: asset?.title ?? ref.id,
        description: asset?.description ?? '',
        compatible_harnesses: [...(asset?.adapter?.compatible_harnesses ?? [])],
        contract:
          contract === undefined
            ? null
            : {
                required_host_capabilities: [...contract.required_host_capabilities],
                delivery: Object.fromEntries(Object.entries(contract.delivery).map(([k, v]) => [k, [...v]])),
                project_local_paths: Object.fromEntries(
                  Object.entries(contract.project_local_paths).filter(
                    (entry): entry is [string, string] => entry[1] !== undefined,
                  ),
                ),
              },
      },
    ];
  });
}

export function workflowAnswer(release: Release, workflow: WorkflowDefinition): WorkflowAnswer {
  const schema = workflow.confirmed_state_schema;
  return {
    release: release.release,
    workflow: {
      id: workflow.id,
      version: workflow.version,
      title: workflow.title,
      description: workflow.description,
      entry_aliases: [...workflow.entry_aliases],
      start_step: workflow.start_step,
      required_host_capabilities: [...workflow.required_host_capabilities],
      required_validator_capabilities: [...workflow.required_validator_capabilities],
      confirmed_state_schema: schemaView(release, schema.id, schema.version),
    },
    graph: graphView(workflow),
    host_adapters: hostAdapters(release, workflow),
  };
}

function validatorViews(release: Release, step: StepDefinition): ValidatorView[] {
  return step.validators.map((ref) => {
    const v = release.validators.find((d) => d.id === ref.id && d.version === ref.version);
    return {
      id: ref.id,
      version: ref.version,
      title: v?.title ?? ref.id,
      required: v?.required ?? false,
      required_capabilities: [...(v?.required_capabilities ?? [])],
      input_artifacts: [...(v?.input_artifacts ?? [])],
      brief:
        v === undefined ? null : assetView(assetOf(release, AssetKind.ValidatorBrief, v.brief.id, v.brief.version)),
    };
  });
}

export function stepAnswer(release: Release, workflow: WorkflowDefinition, step: StepDefinition): StepAnswer {
  return {
    release: release.release,
    workflow: { id: workflow.id, version: workflow.version },
    step: {
      id: step.id,
      title: step.title,
      instruction: assetView(assetOf(release, AssetKind.Instruction, step.instruction.id, step.instruction.version)),
      host_assets: step.host_assets.map((a) => ({
        kind: a.kind,
        id: a.id,
        version: a.version,
        title: assetOf(release, a.kind, a.id, a.version)?.title ?? a.id,
      })),
      inputs: [...step.inputs],
      outputs: step.outputs.map((o) => ({
        artifact_id: o.artifact_id,
        path: o.path,
        media_type: o.media_type,
        max_bytes: o.max_bytes,
        write_policy: o.write_policy,
        schema: o.schema === undefined ? null : schemaView(release, o.schema.id, o.schema.version),
      })),
      validators: validatorViews(release, step),
      next: step.next ?? null,
      branches: (step.branches ?? []).map((b) => ({ label: predicateLabel(b.when), to: b.to })),
      question:
        step.question === undefined
          ? null
          : {
              field: step.question.field,
              prompt: step.question.prompt,
              options: (step.question.options ?? []).map((o) => ({ value: o.value, label: o.label })),
            },
    },
  };
}
