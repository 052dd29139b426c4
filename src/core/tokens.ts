import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { RimthanError } from './errors.js';
import type { JsonObject } from './json.js';
import { parseStrictJson, parseStrictJsonBytes } from './strict-json.js';

export const TokenKind = { Checkpoint: 'checkpoint', ValidationBundle: 'validation-bundle' } as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export type TokenVerification =
  | { ok: true; body: JsonObject; keyId: string }
  | { ok: false; reason: 'malformed' | 'invalid_signature' | 'wrong_kind' };

/** Largest token accepted for verification (characters). */
export const MAX_TOKEN_LENGTH = 16 * 1024;
export const MIN_SECRET_BYTES = 32;
export const MAX_RETIRED_KEYS = 16;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const B64URL = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_LENGTH = 43; // 32-byte HMAC-SHA256, unpadded base64url

function secretBytes(secret: string | Uint8Array, label: string): Buffer {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (bytes.byteLength < MIN_SECRET_BYTES) {
    throw new RimthanError('invalid_signing_key', `${label} must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return bytes;
}

function checkKeyId(id: string, label: string): void {
  if (!KEY_ID.test(id)) throw new RimthanError('invalid_signing_key', `${label} must match ${KEY_ID.source}`);
}

/** The active signing key plus up to 16 retired keys that still verify older tokens. */
export class KeyRing {
  readonly activeKeyId: string;
  readonly #keys = new Map<string, Buffer>();

  constructor(opts: { activeKeyId: string; activeSecret: string | Uint8Array; retired?: Record<string, string> }) {
    checkKeyId(opts.activeKeyId, 'active key id');
    this.activeKeyId = opts.activeKeyId;
    this.#keys.set(opts.activeKeyId, secretBytes(opts.activeSecret, 'the active signing secret'));
    const retired = Object.entries(opts.retired ?? {});
    if (retired.length > MAX_RETIRED_KEYS) {
      throw new RimthanError('invalid_signing_key', `at most ${MAX_RETIRED_KEYS} retired verification keys`);
    }
    for (const [id, secret] of retired) {
      checkKeyId(id, 'retired key id');
      if (id === opts.activeKeyId) {
        throw new RimthanError('invalid_signing_key', 'retired verification keys may not redefine the active key');
      }
      this.#keys.set(id, secretBytes(secret, `retired key ${id}`));
    }
  }

  /**
   * Reads RIMTHAN_WORKFLOW_SIGNING_SECRET (≥32 bytes), RIMTHAN_WORKFLOW_SIGNING_KEY_ID (default "default") and
   * RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON (an object of retired key id → secret). Throws with a safe message.
   */
  static fromEnv(env: Record<string, string | undefined>): KeyRing {
    const secret = env['RIMTHAN_WORKFLOW_SIGNING_SECRET'];
    if (secret === undefined || secret === '') {
      throw new RimthanError('signing_key_missing', 'RIMTHAN_WORKFLOW_SIGNING_SECRET is not set');
    }
    const activeKeyId = env['RIMTHAN_WORKFLOW_SIGNING_KEY_ID'] || 'default';
    const retiredJson = env['RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON'];
    return new KeyRing({ activeKeyId, activeSecret: secret, retired: parseRetiredKeys(retiredJson) });
  }

  /** The secret for a key id, if the ring holds it. */
  secretFor(keyId: string): Buffer | undefined {
    return this.#keys.get(keyId);
  }

  get activeSecret(): Buffer {
    return this.#keys.get(this.activeKeyId) as Buffer;
  }
}

/** Parses RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON: a flat object of key id → secret string, at most 16 entries. */
export function parseRetiredKeys(json: string | undefined): Record<string, string> {
  if (json === undefined || json.trim() === '') return {};
  const parsed = parseStrictJson(json, { maxBytes: 64 * 1024, maxDepth: 2 });
  const shapeError = new RimthanError(
    'invalid_signing_key',
    'RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON must be a JSON object of key id to secret string',
  );
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw shapeError;
  }
  const out: Record<string, string> = {};
  for (const [id, secret] of Object.entries(parsed.value)) {
    if (typeof secret !== 'string') throw shapeError;
    out[id] = secret;
  }
  return out;
}

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** Strict base64url: alphabet only, and the one spelling that re-encodes to itself (no padding, zero trailing bits). */
function decodeStrict(part: string): Buffer | undefined {
  if (!B64URL.test(part) || part.length % 4 === 1) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/**
 * Signs and verifies `base64url(canonical body).base64url(HMAC-SHA256)` tokens. The body always carries `token_kind`
 * and `key_id`; a token of one kind is never accepted as another, an unknown key id looks exactly like a bad signature.
 */
export class TokenSigner {
  readonly #ring: KeyRing;

  constructor(ring: KeyRing) {
    this.#ring = ring;
  }

  get activeKeyId(): string {
    return this.#ring.activeKeyId;
  }

  sign(kind: TokenKind, body: JsonObject): string {
    const full: JsonObject = { ...body, token_kind: kind, key_id: this.#ring.activeKeyId };
    const encoded = b64url(canonicalJson(full));
    const mac = createHmac('sha256', this.#ring.activeSecret).update(encoded).digest();
    return `${encoded}.${b64url(mac)}`;
  }

  verify(kind: TokenKind, token: string): TokenVerification {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return { ok: false, reason: 'malformed' };
    const encoded = token.slice(0, dot);
    const signaturePart = token.slice(dot + 1);
    if (signaturePart.length !== SIGNATURE_LENGTH) return { ok: false, reason: 'malformed' };
    const bodyBytes = decodeStrict(encoded);
    const signature = decodeStrict(signaturePart);
    if (bodyBytes === undefined || signature === undefined) return { ok: false, reason: 'malformed' };
    const parsed = parseStrictJsonBytes(bodyBytes, { maxBytes: MAX_TOKEN_LENGTH, maxDepth: 8, maxKeys: 2048 });
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      return { ok: false, reason: 'malformed' };
    }
    const body = parsed.value;
    const keyId = body['key_id'];
    const secret = typeof keyId === 'string' ? this.#ring.secretFor(keyId) : undefined;
    // An unknown key id still costs one HMAC and answers like a bad signature.
    const expected = createHmac('sha256', secret ?? this.#ring.activeSecret)
      .update(encoded)
      .digest();
    const macOk = expected.length === signature.length && timingSafeEqual(expected, signature);
    if (!macOk || secret === undefined || typeof keyId !== 'string') return { ok: false, reason: 'invalid_signature' };
    if (canonicalJson(body) !== bodyBytes.toString('utf8')) return { ok: false, reason: 'malformed' };
    if (body['token_kind'] !== kind) return { ok: false, reason: 'wrong_kind' };
    return { ok: true, body, keyId };
  }
}
