/**
 * Deterministic artifact checks: count and total size, declared IDs only (no duplicates, none missing), exact media
 * type and path, UTF-8 size within the declaration's max_bytes, strict JSON parsing and the declared JSON Schema. Each
 * accepted artifact is reduced to a SHA-256 receipt of its UTF-8 bytes; the body itself is dropped by the caller.
 */
import { hasLoneSurrogate, parseStrictJson, sha256Hex } from '../../core/index.js';
import type { ArtifactMediaType, StepDefinition } from '../../registry/model/index.js';
import { FailureCode } from '../codes.js';
import { Limits } from '../contracts/primitives.js';
import type { Failure } from '../outcomes.js';
import type { ReleaseScope } from '../scope.js';

const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export interface SubmittedArtifact {
  readonly artifact_id: string;
  readonly media_type: ArtifactMediaType;
  readonly content: string;
  readonly path: string;
}

export interface ArtifactCheck {
  readonly failures: Failure[];
  /** Artifact ID → SHA-256 for every submitted, declared artifact (meaningful only when `failures` is empty). */
  readonly receipts: Record<string, string>;
}

/** Checks the submitted artifacts of `step` and computes their receipts. */
export function checkArtifacts(
  scope: ReleaseScope,
  step: StepDefinition,
  artifacts: readonly SubmittedArtifact[],
): ArtifactCheck {
  const failures: Failure[] = [];
  const receipts: Record<string, string> = {};
  if (artifacts.length > Limits.artifacts) {
    failures.push({ code: FailureCode.ArtifactCountExceeded, limit: Limits.artifacts });
  }
  let total = 0;
  const seen = new Set<string>();
  for (const artifact of artifacts.slice(0, Limits.artifacts)) {
    const artifact_id = artifact.artifact_id;
    if (seen.has(artifact_id)) {
      failures.push({ code: FailureCode.DuplicateArtifact, artifact_id });
      continue;
    }
    seen.add(artifact_id);
    const declared = step.outputs.find((o) => o.artifact_id === artifact_id);
    if (declared === undefined) {
      failures.push({ code: FailureCode.UndeclaredArtifact, artifact_id });
      continue;
    }
    if (artifact.media_type !== declared.media_type)
      failures.push({ code: FailureCode.MediaTypeMismatch, artifact_id });
    if (artifact.path !== declared.path) {
      failures.push({ code: FailureCode.ArtifactPathMismatch, artifact_id, path: declared.path });
    }
    // Most artifacts hold no surrogate at all (one regex pass, free on Latin-1 text); only those that do need the
    // exact lone-surrogate check and, for JSON, code-point string lengths.
    const surrogates = ANY_SURROGATE.test(artifact.content);
    if (surrogates && hasLoneSurrogate(artifact.content)) {
      failures.push({ code: FailureCode.ArtifactNotUtf8, artifact_id });
      continue;
    }
    const bytes = Buffer.byteLength(artifact.content, 'utf8');
    total += bytes;
    if (bytes === 0) failures.push({ code: FailureCode.EmptyArtifact, artifact_id });
    if (bytes > declared.max_bytes) {
      failures.push({ code: FailureCode.ArtifactTooLarge, artifact_id, limit: declared.max_bytes });
      continue;
    }
    receipts[artifact_id] = sha256Hex(artifact.content);
    if (declared.media_type !== 'application/json' || artifact.media_type !== declared.media_type || bytes === 0) {
      continue;
    }
    const parsed = parseStrictJson(artifact.content, { maxBytes: declared.max_bytes });
    if (!parsed.ok) {
      failures.push({ code: FailureCode.InvalidJson, artifact_id });
      continue;
    }
    // A raw surrogate or a \uD800-\uDFFF escape is the only way a parsed string can hold a surrogate. (`includes`
    // is a fast native search; the regex runs only on text that has a \u escape at all.)
    const schema = declared.schema;
    const escaped = artifact.content.includes('\\u') && SURROGATE_ESCAPE.test(artifact.content);
    const check =
      schema === undefined
        ? undefined
        : surrogates || escaped
          ? scope.compiled(schema.id, schema.version)
          : scope.compiledSurrogateFree(schema.id, schema.version);
    const result = check?.(parsed.value) ?? { ok: false as const, issues: [{ keyword: 'schema', schemaPath: '#' }] };
    if (!result.ok) {
      const issue = result.issues[0];
      failures.push({
        code: FailureCode.JsonSchemaFailed,
        artifact_id,
        ...(issue === undefined
          ? {}
          : { keyword: issue.keyword.slice(0, 64), schema_path: issue.schemaPath.slice(0, 512) }),
      });
    }
  }
  if (total > Limits.artifactTotalBytes) {
    failures.push({ code: FailureCode.ArtifactsTotalTooLarge, limit: Limits.artifactTotalBytes });
  }
  for (const declared of step.outputs) {
    if (!seen.has(declared.artifact_id)) {
      failures.push({ code: FailureCode.MissingArtifact, artifact_id: declared.artifact_id });
    }
  }
  return { failures, receipts };
}
