/**
 * Artifact and validator wiring of each workflow: declared outputs (ids, paths, sizes, media types and schemas),
 * inputs produced by earlier steps, validators reading only what their step has.
 */
import { ArtifactMediaType } from '../model/release.js';
import type { StepDefinition } from '../model/release.js';
import { isKebabId } from '../model/naming.js';
import { projectPathProblem } from '../paths.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import type { Path } from '../problems.js';
import type { Checker } from './context.js';

/** Largest artifact a step may declare. */
export const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;

/** Checks the artifact declarations, inputs and validator wiring of every workflow, step by step in order. */
export function checkArtifacts(c: Checker): void {
  for (const w of c.content.workflows) {
    const key = entryKey('workflow', w.id, w.version);
    const produced = new Set<string>();
    const paths = new Set<string>();
    w.steps.forEach((step, i) => {
      const path = ['steps', i];
      checkOutputs(c, key, path, step, produced, paths);
      checkInputs(c, key, path, step, produced);
      checkValidatorWiring(c, key, path, step);
      for (const out of step.outputs) produced.add(out.artifact_id);
    });
  }
}

function checkOutputs(
  c: Checker,
  key: string,
  path: Path,
  step: StepDefinition,
  produced: Set<string>,
  paths: Set<string>,
): void {
  step.outputs.forEach((out, j) => {
    const at = [...path, 'outputs', j];
    if (!isKebabId(out.artifact_id))
      c.report(
        key,
        [...at, 'artifact_id'],
        ProblemCode.InvalidId,
        `artifact id ${quoted(out.artifact_id)} must be kebab-case`,
      );
    const earlier =
      produced.has(out.artifact_id) || step.outputs.findIndex((o) => o.artifact_id === out.artifact_id) !== j;
    if (earlier)
      c.report(
        key,
        [...at, 'artifact_id'],
        ProblemCode.DuplicateArtifact,
        `artifact ${quoted(out.artifact_id)} is declared twice`,
      );
    const pathProblem = projectPathProblem(out.path);
    if (pathProblem !== undefined)
      c.report(key, [...at, 'path'], ProblemCode.ArtifactPathInvalid, `artifact path ${pathProblem}`);
    if (paths.has(out.path))
      c.report(
        key,
        [...at, 'path'],
        ProblemCode.DuplicateArtifact,
        `path ${quoted(out.path)} is declared by two artifacts`,
      );
    paths.add(out.path);
    if (out.max_bytes < 1 || out.max_bytes > MAX_ARTIFACT_BYTES) {
      c.report(
        key,
        [...at, 'max_bytes'],
        ProblemCode.MaxBytesInvalid,
        `max_bytes must be between 1 and ${MAX_ARTIFACT_BYTES}`,
      );
    }
    if (out.media_type === ArtifactMediaType.Json) {
      if (out.schema === undefined)
        c.report(key, at, ProblemCode.ArtifactSchemaRequired, 'a JSON artifact needs a schema');
      else c.needSchema(key, [...at, 'schema'], out.schema);
    } else if (out.schema !== undefined) {
      c.report(key, [...at, 'schema'], ProblemCode.ArtifactSchemaForbidden, 'a Markdown artifact has no schema');
    }
  });
}

function checkInputs(c: Checker, key: string, path: Path, step: StepDefinition, produced: ReadonlySet<string>): void {
  step.inputs.forEach((id, j) => {
    const at = [...path, 'inputs', j];
    if (!produced.has(id))
      c.report(key, at, ProblemCode.ArtifactInputUnknown, `input ${quoted(id)} is not an output of an earlier step`);
    if (step.inputs.indexOf(id) !== j)
      c.report(key, at, ProblemCode.DuplicateEntry, `input ${quoted(id)} is listed twice`);
  });
}

function checkValidatorWiring(c: Checker, key: string, path: Path, step: StepDefinition): void {
  const available = new Set([...step.inputs, ...step.outputs.map((o) => o.artifact_id)]);
  const seen = new Set<string>();
  step.validators.forEach((ref, j) => {
    const at = [...path, 'validators', j];
    const label = `${ref.id}@${ref.version}`;
    if (seen.has(ref.id)) c.report(key, at, ProblemCode.DuplicateEntry, `validator ${quoted(ref.id)} is listed twice`);
    seen.add(ref.id);
    const v = c.needValidator(key, at, ref);
    if (v === undefined) return;
    for (const id of v.input_artifacts) {
      if (!available.has(id)) {
        c.report(
          key,
          at,
          ProblemCode.ValidatorInputUnknown,
          `validator ${quoted(label)} reads ${quoted(id)}, which is neither an output nor an input of this step`,
        );
      }
    }
  });
}
