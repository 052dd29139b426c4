/**
 * Authoring problems: every rule violation found while loading or validating a release source, pointing at the
 * file and line the author has to change. Messages quote only authoring identifiers (never participant data).
 */

/** Stable problem codes (the contract of `rimthan registry check`). */
export const ProblemCode = {
  // reading and parsing
  SourceMissing: 'source_missing',
  ReadFailed: 'read_failed',
  FileTooLarge: 'file_too_large',
  UnexpectedFile: 'unexpected_file',
  FileNameInvalid: 'file_name_invalid',
  YamlSyntax: 'yaml_syntax',
  JsonSyntax: 'json_syntax',
  FrontmatterMissing: 'frontmatter_missing',
  // shape (closed format)
  UnknownKey: 'unknown_key',
  MissingKey: 'missing_key',
  InvalidType: 'invalid_type',
  InvalidValue: 'invalid_value',
  IdMismatch: 'id_mismatch',
  // identifiers and catalogue
  InvalidId: 'invalid_id',
  InvalidVersion: 'invalid_version',
  InvalidReleaseName: 'invalid_release_name',
  DuplicateEntry: 'duplicate_entry',
  AliasCollision: 'alias_collision',
  SchemaInvalid: 'schema_invalid',
  SchemaIdReserved: 'schema_id_reserved',
  UnresolvedRef: 'unresolved_ref',
  // workflow structure
  StartStepInvalid: 'start_step_invalid',
  FirstStepNotSetup: 'first_step_not_setup',
  DuplicateStep: 'duplicate_step',
  NextAndBranches: 'next_and_branches',
  TargetMissing: 'target_missing',
  StepUnreachable: 'step_unreachable',
  BranchFieldUndeclared: 'branch_field_undeclared',
  BranchFieldsMixed: 'branch_fields_mixed',
  BranchOverlap: 'branch_overlap',
  QuestionFieldUndeclared: 'question_field_undeclared',
  QuestionWithoutBranches: 'question_without_branches',
  // artifacts and validators
  ArtifactInputUnknown: 'artifact_input_unknown',
  DuplicateArtifact: 'duplicate_artifact',
  ArtifactSchemaRequired: 'artifact_schema_required',
  ArtifactSchemaForbidden: 'artifact_schema_forbidden',
  ArtifactPathInvalid: 'artifact_path_invalid',
  MaxBytesInvalid: 'max_bytes_invalid',
  ValidatorInputUnknown: 'validator_input_unknown',
  // assets and adapters
  DescriptionTooLong: 'description_too_long',
  AdapterHarnessIncompatible: 'adapter_harness_incompatible',
  AdapterContractRequired: 'adapter_contract_required',
  AdapterPathInvalid: 'adapter_path_invalid',
  AdapterPathMissing: 'adapter_path_missing',
} as const;
export type ProblemCode = (typeof ProblemCode)[keyof typeof ProblemCode];

/** One authoring problem. `file` is relative to the source folder (POSIX); `line` is 1-based. */
export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly code: ProblemCode;
  readonly message: string;
}

/** A location inside a release entry: the entry key (see {@link entryKey}) and a path into the entry's JSON. */
export type Path = readonly (string | number)[];

export interface Site {
  readonly entry: string;
  readonly path: Path;
}

/** Maps a site inside an entry back to the file and line it came from. */
export type Locator = (site: Site) => { file: string; line: number };

/** Entry keys used by sites and locators: `workflow:<id>@<v>`, `asset:<kind>/<id>@<v>`, `validator:…`, `schema:…`. */
export function entryKey(type: 'workflow' | 'validator' | 'schema', id: string, version: string): string;
export function entryKey(type: 'asset', id: string, version: string, kind: string): string;
export function entryKey(type: string, id: string, version: string, kind?: string): string {
  return kind === undefined ? `${type}:${id}@${version}` : `${type}:${kind}/${id}@${version}`;
}

/** Orders problems by file, line, code and message so reports are deterministic. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => cmp(a.file, b.file) || a.line - b.line || cmp(a.code, b.code) || cmp(a.message, b.message),
  );
}

/** `file:line: code: message` — the one-line form the CLI prints. */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}: ${problem.code}: ${problem.message}`;
}

/** Code-unit string comparison (locale independent). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Quotes an authoring token for a message: printable ASCII only, at most 64 characters. */
export function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return `"${safe.length > 64 ? `${safe.slice(0, 61)}...` : safe}"`;
}
