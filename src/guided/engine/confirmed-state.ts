/**
 * Confirmed state: the participant-confirmed top-level fields the workflow branches on. The checkpoint carries only
 * the digest of the whole projection (state + confirmations); every call re-presents the projection, which must match
 * that digest. A changed field needs a contemporaneous confirmation: made by the participant after the previous
 * checkpoint was issued (allowing for clock skew) and not in the future.
 */
import { digestJson } from '../../core/index.js';
import type { JsonObject, JsonValue } from '../../core/index.js';
import type { Ref } from '../../registry/model/index.js';
import { BlockerCode } from '../codes.js';
import { ProtocolReason, protocolError } from '../errors.js';
import type { Blocker } from '../outcomes.js';
import type { ReleaseScope } from '../scope.js';

/** Tolerated difference between the harness clock and ours when judging confirmation times. */
export const CONFIRMATION_SKEW_MS = 5 * 60 * 1000;

export interface Confirmation {
  readonly confirmed_by: 'participant';
  readonly confirmed_at: string;
}

export interface Projection {
  readonly state: Readonly<Record<string, JsonValue>>;
  readonly confirmations: Readonly<Record<string, Confirmation>>;
}

/** Reads an already schema-validated projection argument. */
export function projectionOf(value: JsonValue | undefined): Projection {
  const object = value as JsonObject;
  return {
    state: object['state'] as JsonObject,
    confirmations: object['confirmations'] as unknown as Projection['confirmations'],
  };
}

/** The canonical digest the checkpoint binds (never the content). */
export function projectionDigest(projection: Projection): string {
  return digestJson({ state: projection.state, confirmations: projection.confirmations });
}

/**
 * Throws workflow_protocol_error when the presented prior state is not the one the checkpoint binds; returns its
 * digest (equal to the checkpoint's) otherwise.
 */
export function requirePriorState(projection: Projection, confirmedStateSha256: string): string {
  const digest = projectionDigest(projection);
  if (digest !== confirmedStateSha256) {
    throw protocolError(ProtocolReason.ConfirmedStateMismatch, 'confirmed state does not match the checkpoint');
  }
  return digest;
}

/**
 * Validates the state against the workflow's confirmed-state schema and the projection's own shape rules (every
 * confirmation names a field). Throws workflow_protocol_error with keyword and schema path only.
 */
export function requireValidState(scope: ReleaseScope, schemaRef: Ref, projection: Projection): void {
  const check = scope.compiled(schemaRef.id, schemaRef.version);
  if (check === undefined) {
    throw protocolError(ProtocolReason.ConfirmedStateSchemaFailed, 'the workflow has no confirmed-state schema');
  }
  const result = check(projection.state);
  if (!result.ok) {
    throw protocolError(
      ProtocolReason.ConfirmedStateSchemaFailed,
      "confirmed state does not match the workflow's confirmed-state schema",
      result.issues.slice(0, 1),
    );
  }
  for (const field of Object.keys(projection.confirmations)) {
    if (!Object.prototype.hasOwnProperty.call(projection.state, field)) {
      throw protocolError(ProtocolReason.ConfirmationWithoutField, 'a confirmation names a field that is not in state');
    }
  }
}

function timeOf(confirmation: Confirmation | undefined): number | undefined {
  if (confirmation === undefined || confirmation.confirmed_by !== 'participant') return undefined;
  const t = Date.parse(confirmation.confirmed_at);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Fields whose confirmation is missing, lies outside `[since − skew, now + skew]`, or is not newer than the field's
 * earlier confirmation in `prior` (a re-used confirmation never confirms a new value).
 */
function unconfirmed(
  projection: Projection,
  fields: readonly string[],
  since: number,
  now: number,
  prior?: Projection,
): Blocker[] {
  const blockers: Blocker[] = [];
  for (const field of [...fields].sort()) {
    const t = timeOf(projection.confirmations[field]);
    const before = prior === undefined ? undefined : timeOf(prior.confirmations[field]);
    const stale = t === undefined || (before !== undefined && t <= before);
    if (stale || t < since - CONFIRMATION_SKEW_MS || t > now + CONFIRMATION_SKEW_MS) {
      blockers.push({ code: BlockerCode.ConfirmationRequired, field });
    }
  }
  return blockers;
}

/** Start: every field must carry a participant confirmation that is not in the future. */
export function initialConfirmationBlockers(projection: Projection, now: Date): Blocker[] {
  return unconfirmed(projection, Object.keys(projection.state), Number.NEGATIVE_INFINITY, now.getTime());
}

/** Top-level fields whose value differs between prior and next (a removed field is refused outright). */
export function changedFields(prior: Projection, next: Projection): string[] {
  for (const field of Object.keys(prior.state)) {
    if (!Object.prototype.hasOwnProperty.call(next.state, field)) {
      throw protocolError(ProtocolReason.ConfirmedStateFieldRemoved, 'a confirmed field cannot be removed');
    }
  }
  return Object.keys(next.state).filter(
    (field) =>
      !Object.prototype.hasOwnProperty.call(prior.state, field) ||
      digestJson(prior.state[field]) !== digestJson(next.state[field]),
  );
}

/** Continue: each changed field needs a fresh confirmation made after the checkpoint was issued. */
export function changeConfirmationBlockers(
  prior: Projection,
  next: Projection,
  checkpointIssuedAt: string,
  now: Date,
): Blocker[] {
  return unconfirmed(next, changedFields(prior, next), Date.parse(checkpointIssuedAt), now.getTime(), prior);
}

/** Migration: every target field must be explicitly re-confirmed after the checkpoint was issued. */
export function migrationConfirmationBlockers(
  prior: Projection,
  next: Projection,
  checkpointIssuedAt: string,
  now: Date,
): Blocker[] {
  return unconfirmed(next, Object.keys(next.state), Date.parse(checkpointIssuedAt), now.getTime(), prior);
}
