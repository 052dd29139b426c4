/**
 * The immutable resource catalogue of one verified release: a deterministic URI → content map built once per release
 * (cached per Release object). JSON entries are served as RFC 8785 canonical JSON so a client can check them against
 * the manifest digests; asset content is served as its exact Markdown bytes. The MCP workflow-engine profile serves
 * it as resources; the route-test runner (src/routes/) reads it in-process.
 */
import { canonicalJson } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import type { Release } from '../registry/model/index.js';
import { resourceUri } from './uris.js';

/** A protocol-level JSON Schema the engine serves next to the release's own schemas (e.g. checkpoint envelopes). */
export interface SchemaResource {
  readonly id: string;
  readonly version: string;
  readonly schema: JsonObject;
}

/** One served resource. */
export interface CatalogueEntry {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly text: string;
}

const JSON_TYPE = 'application/json';
const SCHEMA_TYPE = 'application/schema+json';
const MARKDOWN_TYPE = 'text/markdown';

function summaryOf(release: Release): JsonObject {
  return {
    registry_id: release.registry_id,
    release: release.release,
    manifest_sha256: release.manifest_sha256,
    manifest_uri: resourceUri.manifest(release.release),
    workflows: release.workflows.map((w) => ({
      id: w.id,
      version: w.version,
      title: w.title,
      description: w.description,
      entry_aliases: [...w.entry_aliases],
      definition_uri: resourceUri.workflow(release.release, w.id, w.version),
    })),
  };
}

function* entriesOf(release: Release, extraSchemas: readonly SchemaResource[]): Generator<CatalogueEntry> {
  const r = release.release;
  yield {
    uri: resourceUri.summary(r),
    name: 'release-summary',
    title: `Release ${r}`,
    mimeType: JSON_TYPE,
    text: canonicalJson(summaryOf(release)),
  };
  yield {
    uri: resourceUri.manifest(r),
    name: 'release-manifest',
    title: `Manifest of ${r}`,
    mimeType: JSON_TYPE,
    text: canonicalJson(release.manifest),
  };
  for (const w of release.workflows) {
    const ref = `${w.id}@${w.version}`;
    yield {
      uri: resourceUri.workflow(r, w.id, w.version),
      name: `workflow-definition:${ref}`,
      title: w.title,
      description: w.description,
      mimeType: JSON_TYPE,
      text: canonicalJson(w),
    };
    for (const step of w.steps) {
      yield {
        uri: resourceUri.step(r, w.id, w.version, step.id),
        name: `workflow-step:${ref}/${step.id}`,
        title: step.title,
        mimeType: JSON_TYPE,
        text: canonicalJson(step),
      };
    }
  }
  for (const a of release.assets) {
    yield {
      uri: resourceUri.asset(r, a.kind, a.id, a.version),
      name: `workflow-asset:${a.kind}/${a.id}@${a.version}`,
      title: a.title,
      description: a.description,
      mimeType: MARKDOWN_TYPE,
      text: a.content,
    };
  }
  for (const v of release.validators) {
    yield {
      uri: resourceUri.validator(r, v.id, v.version),
      name: `validator-definition:${v.id}@${v.version}`,
      title: v.title,
      mimeType: JSON_TYPE,
      text: canonicalJson(v),
    };
  }
  const seen = new Set<string>();
  for (const s of [...release.schemas, ...extraSchemas]) {
    const uri = resourceUri.schema(r, s.id, s.version);
    if (seen.has(uri)) continue; // cannot happen for a verified release: protocol schema ids are reserved
    seen.add(uri);
    yield {
      uri,
      name: `workflow-schema:${s.id}@${s.version}`,
      title: `${s.id}@${s.version}`,
      mimeType: SCHEMA_TYPE,
      text: canonicalJson(s.schema),
    };
  }
}

/** The catalogue of one release: entries in a stable order and a URI index. */
export class ResourceCatalogue {
  readonly entries: readonly CatalogueEntry[];
  private readonly byUri: ReadonlyMap<string, CatalogueEntry>;

  constructor(release: Release, extraSchemas: readonly SchemaResource[]) {
    this.entries = [...entriesOf(release, extraSchemas)];
    this.byUri = new Map(this.entries.map((e) => [e.uri, e]));
  }

  /** The entry at `uri`, or `undefined`. */
  get(uri: string): CatalogueEntry | undefined {
    return this.byUri.get(uri);
  }
}

/** Builds catalogues on demand, once per release object (releases are immutable). */
export class CatalogueCache {
  private readonly cache = new WeakMap<Release, ResourceCatalogue>();

  constructor(private readonly extraSchemas: readonly SchemaResource[]) {}

  /** The catalogue of `release`. */
  of(release: Release): ResourceCatalogue {
    let catalogue = this.cache.get(release);
    if (catalogue === undefined) {
      catalogue = new ResourceCatalogue(release, this.extraSchemas);
      this.cache.set(release, catalogue);
    }
    return catalogue;
  }
}
