/**
 * The active-step payload: the exact step definition, its instruction asset, the host assets with their delivery
 * contracts (setup-workspace carries every host asset of the workflow), the selected host adapter, validator payloads,
 * output declarations with schema digests, and the resource URIs behind all of them.
 *
 * After setup, every host asset and the host adapter are references: the same entry without `content` (and without
 * `project_local.content`). Setup's host attestation proved each of them delivered with its digest, and every later
 * checkpoint descends from that setup under the same host binding, so the harness already holds the text; it can read
 * `uri` again (and check `sha256`) instead of receiving the body on every step.
 *
 * A payload depends only on the release and on the host binding's class (harness, pinned adapter, whether the host
 * declared project-local assets), never on participant data. So it is built once per release scope and binding class,
 * deep-frozen, and its canonical text registered for reuse (core's freezeCanonicalFragment).
 */
import { freezeCanonicalFragment, RimthanError } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { AssetEntry, StepDefinition } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';
import { checkpointError } from '../errors.js';
import type { SelectedAdapter } from '../host/adapter.js';
import { hostAssetDelivery } from '../host/delivery.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import { resourceUri } from '../uris.js';

function invalidRelease(message: string): RimthanError {
  return new RimthanError('invalid_release', message);
}

function json<T>(value: T): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

function assetPayload(release: string, asset: AssetEntry): JsonObject {
  return {
    kind: asset.kind,
    id: asset.id,
    version: asset.version,
    title: asset.title,
    sha256: asset.sha256,
    uri: resourceUri.asset(release, asset.kind, asset.id, asset.version),
    content: asset.content,
  };
}

/** The adapter a verified checkpoint is bound to (verification already proved it is the workflow's pin). */
export function boundAdapter(scope: ReleaseScope, binding: HostBinding): SelectedAdapter {
  const asset = scope.asset('host-adapter', binding.adapter_id, binding.adapter_version);
  const contract = asset?.adapter?.adapter_contract;
  if (asset === undefined || contract === undefined) throw checkpointError();
  return { asset, contract };
}

/** `entry` without its `content` when it is a reference to an asset attested at setup. */
function referenced<T extends JsonObject>(entry: T, reference: boolean): T {
  if (!reference) return entry;
  const { content: _content, ...rest } = entry;
  return rest as T;
}

function adapterPayload(release: string, adapter: SelectedAdapter, reference: boolean): JsonObject {
  const c = adapter.contract;
  const { kind: _kind, ...asset } = assetPayload(release, adapter.asset);
  return {
    ...referenced(asset, reference),
    compatible_harnesses: [...(adapter.asset.adapter?.compatible_harnesses ?? [])],
    contract: {
      required_host_capabilities: [...c.required_host_capabilities],
      delivery: { prompt: [...c.delivery.prompt], skill: [...c.delivery.skill], subagent: [...c.delivery.subagent] },
      project_local_paths: { ...c.project_local_paths },
    },
  };
}

/** Builds the step payload for `step` as the bound host will see it. */
function buildStepPayload(
  scope: ReleaseScope,
  index: WorkflowIndex,
  step: StepDefinition,
  binding: HostBinding,
  adapter: SelectedAdapter,
): JsonObject {
  const release = scope.release.release;
  const wf = index.workflow;
  const resources = new Set<string>([
    resourceUri.workflow(release, wf.id, wf.version),
    resourceUri.step(release, wf.id, wf.version, step.id),
    resourceUri.schema(release, wf.confirmed_state_schema.id, wf.confirmed_state_schema.version),
    resourceUri.asset(release, 'host-adapter', adapter.asset.id, adapter.asset.version),
  ]);
  const instruction = scope.asset('instruction', step.instruction.id, step.instruction.version);
  if (instruction === undefined) throw invalidRelease('a step names an instruction the release lacks');
  resources.add(resourceUri.asset(release, 'instruction', instruction.id, instruction.version));

  const setup = step.id === wf.start_step;
  const refs = setup ? index.hostAssets : step.host_assets;
  const hostAssets = refs.map((ref) => {
    const delivery = hostAssetDelivery(scope, binding, adapter.contract, ref);
    const a = delivery.asset;
    resources.add(resourceUri.asset(release, a.kind, a.id, a.version));
    return {
      ...referenced(assetPayload(release, a), !setup),
      kind: ref.kind,
      description: a.description,
      delivery_modes: [...delivery.modes],
      project_local: delivery.projectLocal === undefined ? null : referenced({ ...delivery.projectLocal }, !setup),
    };
  });

  const validators = step.validators.map((ref) => {
    const v = scope.validator(ref.id, ref.version);
    const brief = v === undefined ? undefined : scope.asset('validator-brief', v.brief.id, v.brief.version);
    const instructionSha256 = scope.instructionSha256(ref.id, ref.version);
    if (v === undefined || brief === undefined || instructionSha256 === undefined) {
      throw invalidRelease('a step names a validator (or brief) the release lacks');
    }
    const uri = resourceUri.validator(release, v.id, v.version);
    resources.add(uri);
    resources.add(resourceUri.asset(release, brief.kind, brief.id, brief.version));
    return {
      validator_id: v.id,
      validator_version: v.version,
      title: v.title,
      required: v.required,
      required_capabilities: [...v.required_capabilities],
      input_artifacts: [...v.input_artifacts],
      instruction_sha256: instructionSha256,
      uri,
      brief: assetPayload(release, brief),
    };
  });

  const outputs = step.outputs.map((o) => {
    const schema = o.schema === undefined ? undefined : scope.schema(o.schema.id, o.schema.version);
    if (schema !== undefined) resources.add(resourceUri.schema(release, schema.id, schema.version));
    return {
      artifact_id: o.artifact_id,
      path: o.path,
      media_type: o.media_type,
      max_bytes: o.max_bytes,
      write_policy: o.write_policy,
      schema:
        schema === undefined
          ? null
          : {
              id: schema.id,
              version: schema.version,
              sha256: schema.sha256,
              uri: resourceUri.schema(release, schema.id, schema.version),
            },
    };
  });

  return {
    workflow: { id: wf.id, version: wf.version, title: wf.title },
    step: json(step),
    instruction: assetPayload(release, instruction),
    host_assets: hostAssets,
    host_adapter: adapterPayload(release, adapter, !setup),
    validators,
    outputs,
    resources: [...resources],
  };
}

/** Built payloads per release scope, keyed by workflow, step and binding class. Dropped with the scope. */
const built = new WeakMap<ReleaseScope, Map<string, JsonObject>>();

/**
 * The step payload for `step` as the bound host will see it: built on first use for this release scope and binding
 * class, then the same frozen object (with its canonical text registered) on every later call.
 */
export function stepPayload(
  scope: ReleaseScope,
  index: WorkflowIndex,
  step: StepDefinition,
  binding: HostBinding,
  adapter: SelectedAdapter,
): JsonObject {
  let payloads = built.get(scope);
  if (payloads === undefined) {
    payloads = new Map();
    built.set(scope, payloads);
  }
  const wf = index.workflow;
  const local = binding.host_capabilities.includes('project-local-assets');
  const key = `${wf.id}|${wf.version}|${step.id}|${binding.harness}|${adapter.asset.id}|${adapter.asset.version}|${local}`;
  let payload = payloads.get(key);
  if (payload === undefined) {
    payload = freezeCanonicalFragment(buildStepPayload(scope, index, step, binding, adapter));
    payloads.set(key, payload);
  }
  return payload;
}
