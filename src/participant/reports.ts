/**
 * The report set bound to a signed validation bundle. Validator subagents return plain JSON (`outcome`, `findings`,
 * optionally their id and the digests they were given); this module binds each report to the bundle (instruction
 * digest, input artifact digests, the checkpoint's harness and adapter version) and refuses, before anything reaches
 * the server, a set the server would refuse: a missing report, an extra one (a validator not in the bundle, or one
 * whose pass receipt is still fresh), a duplicate, a stale one (bound to other inputs or another instruction), or one
 * that is not a report.
 */
import { canonicalJson, isJsonObject, SchemaCompiler } from '../core/index.js';
import type { CompiledSchema, JsonObject, JsonValue } from '../core/index.js';
import { GUIDED_SCHEMA_RESOURCES } from '../guided/index.js';
import type { CheckpointHost } from './attestations.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';

/** One validator as the bundle binds it. */
interface BundleValidator {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly instruction_sha256: string;
  readonly input_artifacts: Readonly<Record<string, string>>;
  readonly report_required: boolean;
}

/** A report as a validator returned it, with the validator it claims to be from. */
export interface GivenReport {
  /** The validator the report is for (`report VALIDATOR FILE`), when the report itself does not say. */
  readonly validator_id?: string;
  readonly report: JsonValue;
  /** Where it came from, for messages (a file name, "stdout of the validator command"). */
  readonly source: string;
}

let reportCheck: CompiledSchema | undefined;
function checkReport(report: JsonObject): boolean {
  if (reportCheck === undefined) {
    const published = GUIDED_SCHEMA_RESOURCES.find((s) => s.id === 'validator-report');
    reportCheck = published === undefined ? () => ({ ok: true }) : new SchemaCompiler().compile(published.schema);
  }
  return reportCheck(report).ok;
}

function refuse(code: ParticipantErrorCode, message: string): never {
  throw new ParticipantError(code, message);
}

/** The validators the bundle requires reports from. */
export function requiredValidators(bundle: JsonObject): string[] {
  return ((bundle['validators'] ?? []) as unknown as BundleValidator[])
    .filter((v) => v.report_required)
    .map((v) => v.validator_id);
}

/**
 * The complete report set for `bundle` from `given` reports, each bound to the bundle and the checkpoint's host.
 * Throws ParticipantError (report_missing, report_extra, report_duplicate, report_stale, report_invalid) otherwise.
 */
export function assembleReports(bundle: JsonObject, host: CheckpointHost, given: readonly GivenReport[]): JsonObject[] {
  const validators = (bundle['validators'] ?? []) as unknown as BundleValidator[];
  const byId = new Map<string, JsonObject>();
  for (const g of given) {
    if (!isJsonObject(g.report)) refuse(ParticipantErrorCode.ReportInvalid, `${g.source} is not one JSON object`);
    const raw = g.report;
    const claimed = typeof raw['validator_id'] === 'string' ? raw['validator_id'] : undefined;
    if (claimed !== undefined && g.validator_id !== undefined && claimed !== g.validator_id) {
      refuse(ParticipantErrorCode.ReportInvalid, `${g.source} is a report of ${claimed}, not of ${g.validator_id}`);
    }
    const id = claimed ?? g.validator_id;
    if (id === undefined)
      refuse(ParticipantErrorCode.ReportInvalid, `${g.source} does not say which validator it is from`);
    const bound = validators.find((v) => v.validator_id === id);
    if (bound === undefined)
      refuse(ParticipantErrorCode.ReportExtra, `${g.source}: validator ${id} is not part of this validation`);
    if (!bound.report_required) {
      refuse(
        ParticipantErrorCode.ReportExtra,
        `${g.source}: validator ${id} already passed for these exact inputs; no report is due`,
      );
    }
    if (byId.has(id)) refuse(ParticipantErrorCode.ReportDuplicate, `${g.source}: a second report of validator ${id}`);
    const stale = (field: string, expected: JsonValue): void => {
      if (raw[field] !== undefined && canonicalJson(raw[field]) !== canonicalJson(expected)) {
        refuse(
          ParticipantErrorCode.ReportStale,
          `${g.source}: the report of ${id} is bound to another ${field} than this validation (stale: prepare again and rerun it)`,
        );
      }
    };
    stale('validator_version', bound.validator_version);
    stale('instruction_sha256', bound.instruction_sha256);
    stale('input_artifacts', bound.input_artifacts);
    stale('validated_by', { harness: host.harness, adapter_version: host.adapter_version });
    const report: JsonObject = {
      validator_id: id,
      validator_version: bound.validator_version,
      instruction_sha256: bound.instruction_sha256,
      input_artifacts: { ...bound.input_artifacts },
      validated_by: { harness: host.harness, adapter_version: host.adapter_version },
      outcome: raw['outcome'] ?? null,
      findings: raw['findings'] ?? [],
    };
    const extra = Object.keys(raw).filter((k) => !(k in report));
    if (extra.length > 0 || !checkReport(report)) {
      refuse(
        ParticipantErrorCode.ReportInvalid,
        `${g.source}: not a validator report (outcome "passed" or "failed", findings [{severity, message}]${extra.length > 0 ? `; unknown field ${extra[0]}` : ''})`,
      );
    }
    byId.set(id, report);
  }
  const missing = validators.filter((v) => v.report_required && !byId.has(v.validator_id)).map((v) => v.validator_id);
  if (missing.length > 0) {
    refuse(
      ParticipantErrorCode.ReportMissing,
      `no report of ${missing.join(', ')} (every listed validator must report)`,
    );
  }
  return validators.filter((v) => v.report_required).map((v) => byId.get(v.validator_id) as JsonObject);
}
