/**
 * Builds the pending record for a new run and applies the host's PrepareRun hook under guard: the hook may bind the
 * five artifact-namespace fields and nothing else.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { isJsonObject } from '../../core/json.js';
import type { ArtifactNamespace, NewRunRecord } from '../store/types.js';
import { RunStatus } from '../store/types.js';
import type { PrepareRun } from './types.js';

export interface NewRunFields {
  readonly sessionId: string;
  readonly runId: string;
  readonly definitionName: string;
  readonly definitionVersion: string;
  readonly parentRunId: string | null;
  readonly inputSha256: string;
  readonly idempotencyKey: string | null;
  readonly now: string;
}

/** The pending record: revision -1 until the seed checkpoint is durable; the namespace defaults to this run. */
export function buildNewRun(f: NewRunFields): NewRunRecord {
  return {
    session_id: f.sessionId,
    run_id: f.runId,
    definition_name: f.definitionName,
    definition_version: f.definitionVersion,
    parent_run_id: f.parentRunId,
    input_sha256: f.inputSha256,
    idempotency_key: f.idempotencyKey,
    status: RunStatus.Pending,
    status_summary: '',
    cancel_requested: false,
    checkpoint_revision: -1,
    activity_cursor: 0,
    artifacts: [],
    artifact_namespace: {
      session_id: f.sessionId,
      run_id: f.runId,
      input_kind: f.parentRunId === null ? '' : 'parent',
      input_session_id: f.parentRunId === null ? '' : f.sessionId,
      input_run_id: f.parentRunId ?? '',
    },
    interrupt: null,
    created_at: f.now,
    updated_at: f.now,
  };
}

/** Every protected field, in the order a difference is reported. */
const PROTECTED: readonly (keyof NewRunRecord)[] = [
  'session_id',
  'run_id',
  'definition_name',
  'definition_version',
  'parent_run_id',
  'input_sha256',
  'idempotency_key',
  'status',
  'status_summary',
  'cancel_requested',
  'checkpoint_revision',
  'activity_cursor',
  'artifacts',
  'interrupt',
  'created_at',
  'updated_at',
];
const NAMESPACE_FIELDS: readonly (keyof ArtifactNamespace)[] = [
  'session_id',
  'run_id',
  'input_kind',
  'input_session_id',
  'input_run_id',
];
const INPUT_KINDS: ReadonlySet<string> = new Set(['', 'bootstrap', 'parent']);
const MAX_NAMESPACE_FIELD_BYTES = 256;

export type PrepareOutcome =
  { readonly ok: true; readonly record: NewRunRecord } | { readonly ok: false; readonly message: string };

function same(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** The first problem with the hook's namespace, or undefined when it is five well-formed fields. */
function namespaceProblem(ns: unknown): string | undefined {
  if (!isJsonObject(ns)) return 'artifact_namespace';
  const keys = Object.keys(ns);
  const extra = keys.find((k) => !(NAMESPACE_FIELDS as readonly string[]).includes(k));
  if (extra !== undefined) return `artifact_namespace.${extra}`;
  for (const field of NAMESPACE_FIELDS) {
    const v = ns[field];
    if (typeof v !== 'string' || Buffer.byteLength(v, 'utf8') > MAX_NAMESPACE_FIELD_BYTES)
      return `artifact_namespace.${field}`;
  }
  return INPUT_KINDS.has(ns['input_kind'] as string) ? undefined : 'artifact_namespace.input_kind';
}

/**
 * Runs the hook on a copy and checks its answer against the original: any protected field that differs (or any field
 * added) refuses the start, naming the first such field; a malformed namespace is refused the same way.
 */
export async function applyPrepareRun(hook: PrepareRun | undefined, record: NewRunRecord): Promise<PrepareOutcome> {
  if (hook === undefined) return { ok: true, record };
  const prepared: unknown = await hook(structuredClone(record));
  if (!isJsonObject(prepared)) return { ok: false, message: 'prepareRun must return a run record' };
  for (const field of PROTECTED) {
    if (!same(prepared[field], record[field])) return protectedChange(field);
  }
  const added = Object.keys(prepared).find(
    (k) => k !== 'artifact_namespace' && !(PROTECTED as readonly string[]).includes(k),
  );
  if (added !== undefined) return protectedChange(added);
  const problem = namespaceProblem(prepared['artifact_namespace']);
  if (problem !== undefined) return { ok: false, message: `prepareRun set an invalid ${problem}; no run was created` };
  const ns = prepared['artifact_namespace'] as unknown as ArtifactNamespace;
  const artifact_namespace: ArtifactNamespace = {
    session_id: ns.session_id,
    run_id: ns.run_id,
    input_kind: ns.input_kind,
    input_session_id: ns.input_session_id,
    input_run_id: ns.input_run_id,
  };
  return { ok: true, record: { ...record, artifact_namespace } };
}

function protectedChange(field: string): PrepareOutcome {
  return { ok: false, message: `prepareRun may not change the protected field "${field}"; no run was created` };
}
