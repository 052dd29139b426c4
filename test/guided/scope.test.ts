import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SchemaCompiler } from '../../src/core/index.js';
import { createReleaseScope } from '../../src/guided/index.js';
import { chooseRoute, moved, passStep, toRouteSelection } from './fixtures/drive.js';
import { Session } from './fixtures/harness.js';
import { fixtureRelease } from './fixtures/release.js';

test('a release scope compiles every schema once per length mode, and running the workflow compiles none again', () => {
  const release = fixtureRelease();
  // Only the release's own schemas count: Rimthan's shipped contracts and token schemas compile on first use.
  const releaseSchemas = new Set<object>(release.schemas.map((s) => s.schema));
  // eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound with .call below
  const original = SchemaCompiler.prototype.compile;
  let compiled = 0;
  SchemaCompiler.prototype.compile = function (this: SchemaCompiler, schema) {
    if (releaseSchemas.has(schema)) compiled++;
    return original.call(this, schema);
  };
  try {
    const scope = createReleaseScope(release);
    // Code-point lengths (exact) and UTF-16 lengths (for surrogate-free artifacts): two compilations per schema.
    assert.equal(compiled, 2 * release.schemas.length);
    assert.ok(scope.compiled('evidence-log', '1.0.0'));
    const session = new Session(scope);
    const pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    moved(pos, passStep(session, pos));
    assert.equal(compiled, 2 * release.schemas.length);
  } finally {
    SchemaCompiler.prototype.compile = original;
  }
});

test('a release scope indexes workflows by ID and alias, newest first, and assets, validators and schemas by version', () => {
  const scope = createReleaseScope(fixtureRelease());
  assert.deepEqual(
    scope.workflowVersions('research').map((w) => w.workflow.version),
    ['1.2.0', '1.1.0', '1.0.0'],
  );
  assert.equal(scope.workflowVersions('research-decision')[0]?.workflow.version, '1.2.0');
  assert.deepEqual(scope.workflowVersions('unknown'), []);
  const index = scope.workflow('research-decision', '1.2.0');
  assert.deepEqual(
    index?.hostAssets.map((a) => `${a.kind}/${a.id}`),
    ['prompt/start-research', 'skill/research-method', 'subagent/evidence-validator'],
  );
  assert.equal(index?.artifacts.get('evidence-log')?.stepId, 'desk-research');
  assert.ok(scope.asset('host-adapter', 'legacy-adapter', '1.0.0'));
  assert.equal(scope.asset('skill', 'research-method', '9.9.9'), undefined);
  assert.match(scope.instructionSha256('source-check', '1.0.0') ?? '', /^[0-9a-f]{64}$/);
});
