/**
 * server.json, the package's entry for the MCP Registry: valid against the 2025-12-11 server.json schema, and in step
 * with package.json (the registry verifies an npm package by the `mcpName` of its published package.json, and
 * server.json's version must be the version published). The schema is not shipped by any npm package, so the test
 * validates against a reconstruction from the registry's documentation (fixtures/, its `$comment` cites the pages);
 * the checks that matter most here, name, versions and the npm package entry, are also asserted directly.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { packageRoot } from '../../../src/package/index.js';

const ROOT = packageRoot();
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
const SCHEMA_FILE = join(ROOT, 'test', 'system', 'package', 'fixtures', 'server.schema.2025-12-11.reconstructed.json');

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    packageArguments?: { type: string; value?: string }[];
  }[];
  remotes: { type: string; url: string; variables?: Record<string, unknown> }[];
}

const serverJson = JSON.parse(readFileSync(join(ROOT, 'server.json'), 'utf8')) as ServerJson;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  mcpName?: string;
  bin: Record<string, string>;
  files: string[];
};

/** The compiled schema: whether a value is valid, and the errors of the last refusal. */
function compiledSchema(): { valid(value: unknown): boolean; errors(): string } {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { $id: string };
  assert.equal(schema.$id, SCHEMA_URL);
  // strictRequired off: the packages-or-remotes anyOf names properties declared beside it, not inside it.
  const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);
  return { valid: (value) => validate(value), errors: () => JSON.stringify(validate.errors) };
}

describe('server.json for the MCP Registry', () => {
  test('is valid against the 2025-12-11 server.json schema it names', () => {
    assert.equal(serverJson.$schema, SCHEMA_URL);
    const schema = compiledSchema();
    const valid = (value: unknown): boolean => schema.valid(value);
    assert.ok(valid(serverJson), schema.errors());
    // The validator is live: what the schema forbids is refused.
    assert.equal(valid({ ...serverJson, description: 'x'.repeat(101) }), false);
    assert.equal(valid({ ...serverJson, version: '^0.1.0' }), false);
    assert.equal(valid({ ...serverJson, packages: [{ ...serverJson.packages[0], version: 'latest' }] }), false);
    assert.equal(valid({ ...serverJson, name: 'rimthan' }), false);
    assert.equal(valid({ ...serverJson, packageArgs: [] }), false);
  });

  test('its name is package.json mcpName, in the io.github.<owner>/<name> form', () => {
    assert.equal(manifest.mcpName, serverJson.name);
    assert.match(serverJson.name, /^io\.github\.[A-Za-z0-9-]+\/[a-z0-9._-]+$/);
  });

  test('its versions are package.json version, and its npm package is this package started as `rimthan serve`', () => {
    assert.equal(serverJson.version, manifest.version);
    const [npm, ...others] = serverJson.packages;
    assert.deepEqual(others, []);
    assert.equal(npm?.registryType, 'npm');
    assert.equal(npm?.identifier, manifest.name);
    assert.equal(npm?.version, manifest.version);
    assert.deepEqual(npm?.transport, { type: 'stdio' });
    assert.deepEqual(npm?.packageArguments, [{ type: 'positional', value: 'serve' }]);
    assert.ok(manifest.bin[manifest.name] !== undefined, 'npx runs the package bin of the same name');
  });

  test("its remote is a Streamable HTTP URL template whose every variable is described (an organisation's endpoint)", () => {
    const [remote] = serverJson.remotes;
    assert.equal(remote?.type, 'streamable-http');
    const names = [...(remote?.url ?? '').matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    assert.ok(names.length > 0);
    for (const name of names) assert.ok(remote?.variables?.[name ?? ''] !== undefined, `variable ${name}`);
  });

  test('server.json is not packed: the registry reads it from the publisher, not from the tarball', () => {
    assert.ok(!manifest.files.includes('server.json'));
  });
});
