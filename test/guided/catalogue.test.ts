import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CatalogueCache, PUBLISHED_SCHEMA_RESOURCES } from '../../src/guided/index.js';
import { parseRegistryUri } from '../../src/mcp/workflow-engine/resource-uris.js';
import { packageRoot } from '../../src/package/index.js';
import { checkSource } from '../../src/registry/index.js';

describe('the release resource catalogue', () => {
  const checked = checkSource(join(packageRoot(), 'releases', 'src', 'research-decision'));
  assert.ok(checked.ok);
  const release = checked.release;
  const catalogue = new CatalogueCache(PUBLISHED_SCHEMA_RESOURCES).of(release);

  test('every URI it lists is one the MCP profile parses back to the same release and entry kind', () => {
    const kinds = new Set<string>();
    for (const entry of catalogue.entries) {
      const parsed = parseRegistryUri(entry.uri);
      assert.ok(parsed !== undefined, entry.uri);
      assert.equal(parsed.release, release.release);
      kinds.add(parsed.path.kind);
      assert.equal(catalogue.get(entry.uri), entry);
    }
    assert.deepEqual([...kinds].sort(), ['asset', 'manifest', 'schema', 'step', 'summary', 'validator', 'workflow']);
  });

  test('a workflow definition is served as the canonical JSON of the release entry', () => {
    const workflow = release.workflows[0];
    assert.ok(workflow !== undefined);
    const uri = `rimthan://registry/${release.release}/workflows/${workflow.id}/${workflow.version}/definition`;
    assert.deepEqual(JSON.parse(catalogue.get(uri)?.text ?? 'null'), JSON.parse(JSON.stringify(workflow)));
  });
});
