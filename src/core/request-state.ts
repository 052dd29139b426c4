/**
 * The request-state token: what a multi-round call hands the client between rounds, treated as attacker-controlled
 * when it comes back. Signed with the checkpoint key ring as its own token kind (`request-state`), so it can never pass
 * as a checkpoint or a validation bundle (nor they as it). It binds the tool, the SHA-256 of the canonical JSON (RFC
 * 8785) of the call's arguments, a digest of the principal (or none), the pending question (a key such as a state field
 * and the digest of what was asked) and a short lifetime. It holds digests only, never participant data.
 *
 * Verification fails closed, in this order: signature and kind → closed body → lifetime → tool → arguments →
 * principal, each with its own reason, so a refusal names its cause without revealing anything else.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock.js';
import { digestJson, sha256Hex } from './digest.js';
import { RimthanError } from './errors.js';
import type { JsonObject } from './json.js';
import type { TokenSigner } from './tokens.js';

export const REQUEST_STATE_SCHEMA = 'rimthan.request-state/1';
/** Default lifetime of a request state: ten minutes (a person answering one question). */
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60 * 1000;
/** Tolerated clock difference for an issue time slightly in the future (another replica's clock). */
export const REQUEST_STATE_SKEW_MS = 60 * 1000;
const MAX_NAME = 128;
const HEX64 = /^[0-9a-f]{64}$/;
const BODY_KEYS = [
  'arguments_sha256',
  'expires_at',
  'issued_at',
  'key_id',
  'pending_key',
  'pending_sha256',
  'principal_sha256',
  'schema',
  'token_kind',
  'tool',
].sort();

/** Why a presented request state was refused. */
export const RequestStateReason = {
  Malformed: 'malformed',
  Tampered: 'tampered',
  WrongKind: 'wrong_kind',
  Expired: 'expired',
  OtherTool: 'other_tool',
  OtherArguments: 'other_arguments',
  OtherPrincipal: 'other_principal',
} as const;
export type RequestStateReason = (typeof RequestStateReason)[keyof typeof RequestStateReason];

const MESSAGES: Record<RequestStateReason, string> = {
  malformed: 'requestState is not a request state this server issued',
  tampered: 'requestState failed signature verification',
  wrong_kind: 'requestState is a token of another kind',
  expired: 'requestState is outside its lifetime; call again without it',
  other_tool: 'requestState was issued for another tool',
  other_arguments: 'requestState was issued for a call with other arguments',
  other_principal: 'requestState was issued to another principal',
};

/** A refused request state: `code` is always `request_state_invalid`, `reason` says why. */
export class RequestStateError extends RimthanError {
  override readonly name = 'RequestStateError';
  declare readonly code: 'request_state_invalid';
  readonly reason: RequestStateReason;

  constructor(reason: RequestStateReason) {
    super('request_state_invalid', MESSAGES[reason]);
    this.reason = reason;
  }
}

/** What a request state is bound to: the call (tool and arguments) and who made it. */
export interface RequestStateCall {
  readonly tool: string;
  /** The call's arguments (every member the tool received); bound by the digest of their canonical JSON. */
  readonly arguments: JsonObject;
  /** The authenticated principal's id, or undefined when the transport has none (stdio). */
  readonly principalId: string | undefined;
}

/** The question the first round asked: a key (e.g. a state field) and the digest of exactly what was asked. */
export interface PendingQuestion {
  readonly key: string;
  readonly sha256: string;
}

/** A request state that verified. */
export interface VerifiedRequestState {
  readonly pending: PendingQuestion;
  readonly issuedAt: Date;
}

function principalDigest(principalId: string | undefined): string | null {
  return principalId === undefined ? null : sha256Hex(`rimthan.request-state.principal:${principalId}`);
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The verified body, checked closed: exactly the known members with their types. */
function readBody(body: JsonObject): JsonObject | undefined {
  const keys = Object.keys(body).sort();
  if (keys.length !== BODY_KEYS.length || keys.some((k, i) => k !== BODY_KEYS[i])) return undefined;
  const principal = body['principal_sha256'];
  const ok =
    body['schema'] === REQUEST_STATE_SCHEMA &&
    isName(body['tool']) &&
    isName(body['pending_key']) &&
    typeof body['arguments_sha256'] === 'string' &&
    HEX64.test(body['arguments_sha256']) &&
    typeof body['pending_sha256'] === 'string' &&
    HEX64.test(body['pending_sha256']) &&
    (principal === null || (typeof principal === 'string' && HEX64.test(principal))) &&
    isTime(body['issued_at']) &&
    isTime(body['expires_at']) &&
    body['expires_at'] > body['issued_at'];
  return ok ? body : undefined;
}

/** Issues and verifies request states with one signer (the checkpoint key ring) and one clock. */
export class RequestStateCodec {
  readonly #signer: TokenSigner;
  readonly #clock: Clock;
  readonly #ttlMs: number;

  constructor(signer: TokenSigner, clock: Clock, ttlMs = DEFAULT_REQUEST_STATE_TTL_MS) {
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
      throw new RimthanError('invalid_config', 'the request-state lifetime must be a positive number of milliseconds');
    }
    this.#signer = signer;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  /** Signs a request state for `call` waiting on `pending`. */
  issue(call: RequestStateCall, pending: PendingQuestion): string {
    if (!isName(call.tool) || !isName(pending.key) || !HEX64.test(pending.sha256)) {
      throw new RimthanError('invalid_request_state', 'a request state needs a tool, a pending key and its digest');
    }
    const now = this.#clock.now().getTime();
    return this.#signer.sign('request-state', {
      schema: REQUEST_STATE_SCHEMA,
      tool: call.tool,
      arguments_sha256: digestJson(call.arguments),
      principal_sha256: principalDigest(call.principalId),
      pending_key: pending.key,
      pending_sha256: pending.sha256,
      issued_at: now,
      expires_at: now + this.#ttlMs,
    });
  }

  /** Verifies `token` for `call`; throws RequestStateError naming the first reason it is refused. */
  verify(token: unknown, call: RequestStateCall): VerifiedRequestState {
    if (typeof token !== 'string') throw new RequestStateError(RequestStateReason.Malformed);
    const verified = this.#signer.verify('request-state', token);
    if (!verified.ok) {
      if (verified.reason === 'wrong_kind') throw new RequestStateError(RequestStateReason.WrongKind);
      throw new RequestStateError(
        verified.reason === 'invalid_signature' ? RequestStateReason.Tampered : RequestStateReason.Malformed,
      );
    }
    const body = readBody(verified.body);
    if (body === undefined) throw new RequestStateError(RequestStateReason.Malformed);
    const now = this.#clock.now().getTime();
    const issuedAt = body['issued_at'] as number;
    const expired = now >= (body['expires_at'] as number) || now - issuedAt >= this.#ttlMs;
    if (expired || issuedAt > now + REQUEST_STATE_SKEW_MS) {
      throw new RequestStateError(RequestStateReason.Expired);
    }
    if (body['tool'] !== call.tool) throw new RequestStateError(RequestStateReason.OtherTool);
    if (!sameHex(body['arguments_sha256'] as string, digestJson(call.arguments))) {
      throw new RequestStateError(RequestStateReason.OtherArguments);
    }
    const principal = principalDigest(call.principalId);
    const bound = body['principal_sha256'] as string | null;
    if (principal === null || bound === null ? principal !== bound : !sameHex(bound, principal)) {
      throw new RequestStateError(RequestStateReason.OtherPrincipal);
    }
    return {
      pending: { key: body['pending_key'] as string, sha256: body['pending_sha256'] as string },
      issuedAt: new Date(issuedAt),
    };
  }
}
