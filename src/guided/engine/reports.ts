/**
 * Report-set verification for submit_step_validation: exactly one report per validator the bundle marks
 * report_required (none missing, extra or duplicated), each naming the bundle's instruction digest and input digests
 * and the checkpoint's harness and adapter version; every reused validator backed by a pass receipt for the same
 * inputs. Any breach is a workflow_protocol_error and nothing advances.
 */
import type { BundleState, BundleValidator } from '../checkpoint/bundle.js';
import { sameAsClean } from '../checkpoint/same-json.js';
import type { HostBinding, ValidatorReceipt } from '../checkpoint/state.js';
import { ProtocolReason, protocolError } from '../errors.js';
import { refKey } from '../scope.js';

export interface Finding {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly artifact_id?: string;
  readonly location?: string;
}

export interface ValidatorReport {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly instruction_sha256: string;
  readonly input_artifacts: Readonly<Record<string, string>>;
  readonly validated_by: { readonly harness: string; readonly adapter_version: string };
  readonly outcome: 'passed' | 'failed';
  readonly findings: readonly Finding[];
}

/** A report matched to the bundle entry it answers. */
export interface MatchedReport {
  readonly bundle: BundleValidator;
  readonly report: ValidatorReport;
}

/** Verifies the report set; returns each report with its bundle entry. Throws workflow_protocol_error. */
export function matchReports(
  bundle: BundleState,
  reports: readonly ValidatorReport[],
  host: HostBinding,
  receipts: Readonly<Record<string, ValidatorReceipt>>,
): MatchedReport[] {
  const byKey = new Map<string, ValidatorReport>();
  for (const report of reports) {
    const key = refKey(report.validator_id, report.validator_version);
    if (byKey.has(key)) throw protocolError(ProtocolReason.ReportDuplicate, 'a validator report was submitted twice');
    byKey.set(key, report);
  }
  const required = bundle.validators.filter((v) => v.report_required);
  const exact =
    byKey.size === required.length && required.every((v) => byKey.has(refKey(v.validator_id, v.validator_version)));
  if (!exact) {
    throw protocolError(
      ProtocolReason.ReportSetMismatch,
      'the reports must be exactly one per validator the validation bundle requires',
    );
  }
  const matched: MatchedReport[] = [];
  for (const entry of bundle.validators) {
    const key = refKey(entry.validator_id, entry.validator_version);
    if (!entry.report_required) {
      const receipt = receipts[key];
      if (receipt === undefined || receipt.input_sha256 !== entry.input_sha256) {
        throw protocolError(
          ProtocolReason.ReusedReceiptMissing,
          'a reused validator pass no longer matches its inputs',
        );
      }
      continue;
    }
    const report = byKey.get(key) as ValidatorReport;
    if (report.instruction_sha256 !== entry.instruction_sha256) {
      throw protocolError(ProtocolReason.ReportInstructionMismatch, 'a report names a different validator instruction');
    }
    if (!sameAsClean(report.input_artifacts, entry.input_artifacts)) {
      throw protocolError(ProtocolReason.ReportInputMismatch, 'a report names different input artifacts');
    }
    if (report.validated_by.harness !== host.harness || report.validated_by.adapter_version !== host.adapter_version) {
      throw protocolError(ProtocolReason.ReportHostMismatch, 'a report was produced by a different host');
    }
    matched.push({ bundle: entry, report });
  }
  return matched;
}
