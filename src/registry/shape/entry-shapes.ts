/** Closed shapes of validators, assets (built entry and Markdown frontmatter) and schema entries. */
import { sha256Hex } from '../../core/index.js';
import { AssetKind, DeliveryMode, Harness, HostCapability, ValidatorCapability } from '../model/release.js';
import type {
  AdapterContract,
  AssetEntry,
  HostAdapterSpec,
  HostAssetKind,
  SchemaEntry,
  ValidatorDefinition,
} from '../model/release.js';
import { ProblemCode, quoted } from '../problems.js';
import type { Path } from '../problems.js';
import { HOST_ASSET_KINDS, identityKeys, listKey, readIdentity, readRef } from './common.js';
import type { Identity } from './common.js';
import type { ShapeReader } from './reader.js';

const ASSET_KINDS = Object.values(AssetKind);
const HARNESSES = Object.values(Harness);

/** Decodes a validator definition (source YAML or built entry). */
export function readValidator(r: ShapeReader, value: unknown, identity: Identity): ValidatorDefinition | undefined {
  const mark = r.mark();
  const ids = identityKeys(identity);
  const caps = listKey(identity) === 'required';
  const o = r.object(
    value,
    [],
    [...ids.required, 'title', 'brief', 'input_artifacts', 'required', ...(caps ? ['required_capabilities'] : [])],
    [...ids.optional, ...(caps ? [] : ['required_capabilities'])],
  );
  const { id, version } = readIdentity(r, o, identity);
  const validator: ValidatorDefinition = {
    id,
    version,
    title: r.string(o.title, ['title'], { nonEmpty: true, max: 200 }),
    brief: readRef(r, o.brief, ['brief']),
    input_artifacts: r.strings(o.input_artifacts, ['input_artifacts']),
    required_capabilities: r.words(
      o.required_capabilities,
      ['required_capabilities'],
      Object.values(ValidatorCapability),
      'validator capability',
    ),
    required: r.boolean(o.required, ['required']),
  };
  return r.failedSince(mark) ? undefined : validator;
}

/** Decodes an asset entry of a built release. */
export function readAssetEntry(r: ShapeReader, value: unknown): AssetEntry | undefined {
  const mark = r.mark();
  const o = r.object(
    value,
    [],
    ['kind', 'id', 'version', 'title', 'description', 'content', 'sha256'],
    ['tools', 'read_only', 'adapter'],
  );
  const kind = r.oneOf(o.kind, ['kind'], ASSET_KINDS, 'asset kind');
  const asset = withKindFields(
    r,
    kind,
    { tools: o.tools, read_only: o.read_only },
    o.adapter === undefined ? undefined : () => readAdapterSpec(r, o.adapter, ['adapter']),
    {
      kind,
      id: r.string(o.id, ['id']),
      version: r.string(o.version, ['version']),
      title: r.string(o.title, ['title'], { nonEmpty: true, max: 200 }),
      description: r.string(o.description, ['description'], { nonEmpty: true }),
      content: r.string(o.content, ['content']),
      sha256: r.string(o.sha256, ['sha256']),
    },
  );
  return r.failedSince(mark) ? undefined : asset;
}

/** Decodes the YAML frontmatter of a Markdown asset; kind and identity come from the file's location. */
export function readAssetSource(
  r: ShapeReader,
  frontmatter: unknown,
  kind: AssetKind,
  identity: { id: string; version: string },
  content: string,
): AssetEntry | undefined {
  const mark = r.mark();
  const extra =
    kind === AssetKind.Subagent ? ['tools', 'read_only'] : kind === AssetKind.HostAdapter ? ['adapter_contract'] : [];
  const required = ['title', 'description', ...(kind === AssetKind.HostAdapter ? ['compatible_harnesses'] : [])];
  const o = r.object(frontmatter, [], required, ['id', 'version', ...extra]);
  readIdentity(r, o, identity);
  const adapter =
    kind === AssetKind.HostAdapter
      ? () => readAdapterFields(r, o.compatible_harnesses, o.adapter_contract, [])
      : undefined;
  const asset = withKindFields(r, kind, { tools: o.tools, read_only: o.read_only }, adapter, {
    kind,
    id: identity.id,
    version: identity.version,
    title: r.string(o.title, ['title'], { nonEmpty: true, max: 200 }),
    description: r.string(o.description, ['description'], { nonEmpty: true }),
    content,
    sha256: sha256Hex(content),
  });
  return r.failedSince(mark) ? undefined : asset;
}

function withKindFields(
  r: ShapeReader,
  kind: AssetKind,
  subagent: { tools: unknown; read_only: unknown },
  adapter: (() => HostAdapterSpec) | undefined,
  base: AssetEntry,
): AssetEntry {
  const out: { -readonly [K in keyof AssetEntry]: AssetEntry[K] } = { ...base };
  if (subagent.tools !== undefined) {
    if (kind === AssetKind.Subagent) out.tools = r.strings(subagent.tools, ['tools']);
    else r.report(['tools'], ProblemCode.UnknownKey, 'tools is only allowed on subagent assets');
  }
  if (subagent.read_only !== undefined) {
    if (kind === AssetKind.Subagent) out.read_only = r.boolean(subagent.read_only, ['read_only']);
    else r.report(['read_only'], ProblemCode.UnknownKey, 'read_only is only allowed on subagent assets');
  }
  if (kind === AssetKind.HostAdapter) {
    if (adapter === undefined)
      r.report([], ProblemCode.MissingKey, 'a host-adapter asset needs an adapter specification');
    else out.adapter = adapter();
  } else if (adapter !== undefined) {
    r.report(['adapter'], ProblemCode.UnknownKey, 'adapter is only allowed on host-adapter assets');
  }
  return out;
}

function readAdapterSpec(r: ShapeReader, value: unknown, path: Path): HostAdapterSpec {
  const o = r.object(value, path, ['compatible_harnesses'], ['adapter_contract']);
  return readAdapterFields(r, o.compatible_harnesses, o.adapter_contract, path);
}

function readAdapterFields(r: ShapeReader, harnesses: unknown, contract: unknown, path: Path): HostAdapterSpec {
  const spec: { -readonly [K in keyof HostAdapterSpec]: HostAdapterSpec[K] } = {
    compatible_harnesses: r.words(harnesses, [...path, 'compatible_harnesses'], HARNESSES, 'harness'),
  };
  if (contract !== undefined) spec.adapter_contract = readContract(r, contract, [...path, 'adapter_contract']);
  return spec;
}

function readContract(r: ShapeReader, value: unknown, path: Path): AdapterContract {
  const o = r.object(value, path, ['required_host_capabilities', 'delivery', 'project_local_paths']);
  const deliveryPath = [...path, 'delivery'];
  const delivery = r.object(o.delivery, deliveryPath, HOST_ASSET_KINDS);
  const modes = {} as Record<HostAssetKind, DeliveryMode[]>;
  for (const kind of HOST_ASSET_KINDS) {
    modes[kind] = r.words(delivery[kind], [...deliveryPath, kind], Object.values(DeliveryMode), 'delivery mode');
    if (Array.isArray(delivery[kind]) && modes[kind].length === 0) {
      r.report(
        [...deliveryPath, kind],
        ProblemCode.InvalidValue,
        `delivery for ${quoted(kind)} must name at least one mode`,
      );
    }
  }
  const pathsPath = [...path, 'project_local_paths'];
  const templates = r.object(o.project_local_paths, pathsPath, [], HOST_ASSET_KINDS);
  const paths: Partial<Record<HostAssetKind, string>> = {};
  for (const kind of HOST_ASSET_KINDS) {
    if (templates[kind] !== undefined) paths[kind] = r.string(templates[kind], [...pathsPath, kind]);
  }
  return {
    required_host_capabilities: r.words(
      o.required_host_capabilities,
      [...path, 'required_host_capabilities'],
      Object.values(HostCapability),
      'host capability',
    ),
    delivery: modes,
    project_local_paths: paths,
  };
}

/** Decodes a schema entry of a built release. */
export function readSchemaEntry(r: ShapeReader, value: unknown): SchemaEntry | undefined {
  const mark = r.mark();
  const o = r.object(value, [], ['id', 'version', 'schema', 'sha256']);
  const entry: SchemaEntry = {
    id: r.string(o.id, ['id']),
    version: r.string(o.version, ['version']),
    schema: r.json(o.schema, ['schema']),
    sha256: r.string(o.sha256, ['sha256']),
  };
  return r.failedSince(mark) ? undefined : entry;
}
