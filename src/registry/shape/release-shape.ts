/** Closed shape of a built release file (`rimthan.release/v1`). */
import type {
  AssetEntry,
  ManifestEntry,
  ReleaseFile,
  SchemaEntry,
  ValidatorDefinition,
  WorkflowDefinition,
} from '../model/release.js';
import { readAssetEntry, readSchemaEntry, readValidator } from './entry-shapes.js';
import { ShapeReader } from './reader.js';
import type { ShapeIssue } from './reader.js';
import { readWorkflow } from './workflow-shape.js';

export const RELEASE_FORMAT = 'rimthan.release/v1';
const ENTRY_TYPES = ['workflow', 'asset', 'validator', 'schema'] as const;

/** Decodes a parsed release file; undefined (with issues) when any part does not have the closed shape. */
export function readReleaseFile(value: unknown, issues: ShapeIssue[]): ReleaseFile | undefined {
  const r = new ShapeReader('release', issues);
  const mark = r.mark();
  const o = r.object(
    value,
    [],
    ['format', 'manifest', 'manifest_sha256', 'workflows', 'assets', 'validators', 'schemas'],
  );
  r.oneOf(o.format, ['format'], [RELEASE_FORMAT], 'release format');
  const m = r.object(o.manifest, ['manifest'], ['registry_id', 'release', 'entries']);
  const entries = r.array(m.entries, ['manifest', 'entries'], (v, p): ManifestEntry => {
    const e = r.object(v, p, ['type', 'key', 'version', 'sha256']);
    return {
      type: r.oneOf(e.type, [...p, 'type'], ENTRY_TYPES, 'entry type'),
      key: r.string(e.key, [...p, 'key']),
      version: r.string(e.version, [...p, 'version']),
      sha256: r.string(e.sha256, [...p, 'sha256']),
    };
  });
  const file: ReleaseFile = {
    format: RELEASE_FORMAT,
    manifest: {
      registry_id: r.string(m.registry_id, ['manifest', 'registry_id']),
      release: r.string(m.release, ['manifest', 'release']),
      entries,
    },
    manifest_sha256: r.string(o.manifest_sha256, ['manifest_sha256']),
    workflows: r
      .array(o.workflows, ['workflows'], (v) => readWorkflow(r, v, undefined))
      .filter(defined<WorkflowDefinition>),
    assets: r.array(o.assets, ['assets'], (v) => readAssetEntry(r, v)).filter(defined<AssetEntry>),
    validators: r
      .array(o.validators, ['validators'], (v) => readValidator(r, v, undefined))
      .filter(defined<ValidatorDefinition>),
    schemas: r.array(o.schemas, ['schemas'], (v) => readSchemaEntry(r, v)).filter(defined<SchemaEntry>),
  };
  return r.failedSince(mark) ? undefined : file;
}

function defined<T>(value: T | undefined): value is T {
  return value !== undefined;
}
