/**
 * Validator work orders: what a host hands each native validator subagent after `ready_for_semantic_validation`.
 * One order per validator prepare listed (those without a pass receipt for these exact inputs): its brief (exact
 * content, digest-checked), the input artifacts as read-only workspace paths with their digests, the capabilities it
 * needs, and the report it must return.
 */
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import { assetText } from './payload.js';
import type { ResourceReader, StepPayload } from './payload.js';

/** One validator to run now, as prepare answered it. */
export interface PreparedValidator {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly title: string;
  readonly required: boolean;
  readonly instruction_sha256: string;
  readonly input_artifacts: Readonly<Record<string, string>>;
  readonly uri: string;
  readonly brief_uri: string;
}

export interface WorkOrder {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly title: string;
  readonly required: boolean;
  readonly instruction_sha256: string;
  readonly brief: { readonly uri: string; readonly sha256: string; readonly content: string };
  /** Read-only inputs: workspace path and the digest the report is bound to. */
  readonly inputs: readonly { readonly artifact_id: string; readonly path: string; readonly sha256: string }[];
  readonly required_capabilities: readonly string[];
  /** What the subagent returns: one JSON object. */
  readonly report: {
    readonly outcome: 'passed | failed';
    readonly findings: 'array of {severity, message, artifact_id?, location?}';
  };
}

/**
 * Work orders for the validators of a prepare answer. `pathOf` gives the workspace path of an input artifact made
 * by an earlier step (this step's outputs are found in the payload).
 */
export async function workOrdersFor(
  step: StepPayload,
  prepared: JsonObject,
  opts: { readResource: ResourceReader; pathOf?: (artifactId: string) => string | undefined },
): Promise<WorkOrder[]> {
  const validators = (prepared['validators'] ?? []) as unknown as PreparedValidator[];
  const orders: WorkOrder[] = [];
  for (const v of validators) {
    const declared = step.validators.find(
      (p) => p.validator_id === v.validator_id && p.validator_version === v.validator_version,
    );
    if (declared === undefined) {
      throw new ParticipantError(
        ParticipantErrorCode.WrongStep,
        `prepare listed validator ${v.validator_id}@${v.validator_version}, which this step payload does not declare`,
      );
    }
    const briefContent = await assetText(declared.brief, opts.readResource, `the brief of ${v.validator_id}`);
    const inputs = Object.entries(v.input_artifacts)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([artifact_id, sha256]) => {
        const path = step.outputs.find((o) => o.artifact_id === artifact_id)?.path ?? opts.pathOf?.(artifact_id);
        if (path === undefined) {
          throw new ParticipantError(
            ParticipantErrorCode.OutputMissing,
            `validator ${v.validator_id} reads ${artifact_id}, whose path is not known`,
          );
        }
        return { artifact_id, path, sha256 };
      });
    orders.push({
      validator_id: v.validator_id,
      validator_version: v.validator_version,
      title: v.title,
      required: v.required,
      instruction_sha256: v.instruction_sha256,
      brief: { uri: declared.brief.uri, sha256: declared.brief.sha256, content: briefContent },
      inputs,
      required_capabilities: [...declared.required_capabilities],
      report: { outcome: 'passed | failed', findings: 'array of {severity, message, artifact_id?, location?}' },
    });
  }
  return orders;
}
