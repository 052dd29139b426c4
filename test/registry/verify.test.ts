/** A release file is verified before use: tampering, unknown fields and re-digested invalid content all fail closed. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, digestJson } from '../../src/core/index.js';
import { buildRelease, serializeReleaseFile, verifyReleaseFile } from '../../src/registry/index.js';
import type { ReleaseFile, WorkflowDefinition } from '../../src/registry/index.js';
import { assembleReleaseFile } from '../../src/registry/manifest.js';
import { MINIMAL } from './helpers.js';

const SAFE_REASON = /^[a-z_]+(: [a-z_]+)?$/;

function minimalFile(): ReleaseFile {
  const result = buildRelease(MINIMAL);
  assert.ok(result.ok);
  return result.file;
}

/** The parts of a release file the tamper tests touch, as mutable plain JSON. */
interface LooseFile {
  [key: string]: unknown;
  format: string;
  manifest_sha256: string;
  manifest: { entries: unknown[] };
  workflows: { title: string; steps: Record<string, unknown>[] }[];
}

/** Mutable deep copy of the minimal release file as plain JSON. */
function plain(): LooseFile {
  return JSON.parse(canonicalJson(minimalFile())) as LooseFile;
}

function bytesOf(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

function rejected(bytes: Uint8Array): string {
  const result = verifyReleaseFile(bytes);
  assert.equal(result.ok, false, 'the tampered file must not verify');
  const reason = result.ok ? '' : result.reason;
  assert.match(reason, SAFE_REASON);
  return reason;
}

/** Re-digests tampered content so only the authoring rules can catch it. */
function redigested(mutate: (workflows: WorkflowDefinition[]) => WorkflowDefinition[]): Uint8Array {
  const file = minimalFile();
  const tampered = assembleReleaseFile({
    registry_id: file.manifest.registry_id,
    release: file.manifest.release,
    workflows: mutate(JSON.parse(JSON.stringify(file.workflows)) as WorkflowDefinition[]),
    assets: file.assets,
    validators: file.validators,
    schemas: file.schemas,
  });
  return serializeReleaseFile(tampered);
}

describe('release file verification', () => {
  test('an untampered file verifies and the release is frozen', () => {
    const result = verifyReleaseFile(serializeReleaseFile(minimalFile()));
    assert.ok(result.ok);
    assert.ok(Object.isFrozen(result.release.workflows[0]?.steps[0]));
  });

  test('flipping one byte of an asset fails verification', () => {
    const text = new TextDecoder().decode(serializeReleaseFile(minimalFile()));
    const at = text.indexOf('Keep notes short');
    assert.ok(at > 0);
    const bytes = new TextEncoder().encode(text);
    bytes[at] = 'k'.charCodeAt(0);
    assert.equal(rejected(bytes), 'digest_mismatch');
  });

  test('a changed manifest digest fails verification', () => {
    const file = plain();
    file.manifest_sha256 = '0'.repeat(64);
    assert.equal(rejected(bytesOf(file)), 'manifest_digest_mismatch');
  });

  test('a changed workflow whose manifest line was not updated fails verification', () => {
    const file = plain();
    (file.workflows[0] as LooseFile['workflows'][number]).title = 'Something else';
    assert.equal(rejected(bytesOf(file)), 'manifest_mismatch');
  });

  test('a removed manifest line fails verification', () => {
    const file = plain();
    file.manifest.entries.pop();
    assert.equal(rejected(bytesOf(file)), 'manifest_mismatch');
  });

  test('an unknown field anywhere fails verification', () => {
    const top = plain();
    top.signed_by = 'me';
    assert.equal(rejected(bytesOf(top)), 'invalid_shape');
    const nested = plain();
    (nested.workflows[0]?.steps[1] as Record<string, unknown>).skip_validation = true;
    assert.equal(rejected(bytesOf(nested)), 'invalid_shape');
  });

  test('malformed, duplicate-key and oversized files fail verification', () => {
    assert.equal(rejected(new TextEncoder().encode('{"format":')), 'malformed_json');
    assert.equal(
      rejected(new TextEncoder().encode('{"format":"rimthan.release/v1","format":"rimthan.release/v1"}')),
      'malformed_json',
    );
    assert.equal(rejected(new Uint8Array(32 * 1024 * 1024 + 1)), 'release_too_large');
    const other = plain();
    other.format = 'rimthan.release/v0';
    assert.equal(rejected(bytesOf(other)), 'unsupported_format');
  });

  test('a re-digested file with a broken workflow is refused by the authoring rules', () => {
    const reason = rejected(
      redigested((ws) =>
        ws.map((w) => ({
          ...w,
          steps: w.steps.map((s) =>
            s.id === 'polish'
              ? { ...s, outputs: s.outputs.map((o) => ({ ...o, path: '.git/hooks/post-checkout' })) }
              : s,
          ),
        })),
      ),
    );
    assert.equal(reason, 'invalid_release: artifact_path_invalid');
  });

  test('a re-digested file whose workflow does not start with setup-workspace is refused', () => {
    const reason = rejected(redigested((ws) => ws.map((w) => ({ ...w, steps: w.steps.slice(1) }))));
    assert.match(reason, /^invalid_release: /);
  });

  test('a re-digested file with an invalid schema is refused', () => {
    const file = minimalFile();
    const schemas = file.schemas.map((s) => (s.id === 'report' ? { ...s, schema: { type: 'text' } } : s));
    const tampered = assembleReleaseFile({
      registry_id: file.manifest.registry_id,
      release: file.manifest.release,
      workflows: file.workflows,
      assets: file.assets,
      validators: file.validators,
      schemas: schemas.map((s) => ({ ...s, sha256: digestJson(s.schema) })),
    });
    assert.equal(rejected(serializeReleaseFile(tampered)), 'invalid_release: schema_invalid');
  });
});
