import { isUtf8 } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson, canonicalJsonWithMembers } from './canonical-json.js';
import { RimthanError } from './errors.js';
import type { JsonObject } from './json.js';
import { parseStrictJson, parseStrictJsonBytes } from './strict-json.js';

export const TokenKind = {
  Checkpoint: 'checkpoint',
  ValidationBundle: 'validation-bundle',
  RequestState: 'request-state',
} as const;
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
const MAX_BODY_DEPTH = 8;
const BODY_LIMITS = { maxBytes: MAX_TOKEN_LENGTH, maxDepth: MAX_BODY_DEPTH, maxKeys: 2048 } as const;

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

const B64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * True when `part` (already known to use only the base64url alphabet) is the one spelling of its bytes: no length
 * that leaves a lone character, and zero bits where the last character pads a partial byte (2 or 4 bits).
 */
function isCanonicalBase64url(part: string): boolean {
  const rest = part.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  const last = B64URL_ALPHABET.indexOf(part.charAt(part.length - 1));
  return (last & (rest === 2 ? 0b1111 : 0b11)) === 0;
}

/** Strict base64url: alphabet only, and the one spelling that re-encodes to itself (no padding, zero trailing bits). */
function decodeStrict(part: string): Buffer | undefined {
  if (!B64URL.test(part) || !isCanonicalBase64url(part)) return undefined;
  return Buffer.from(part, 'base64url');
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

  /**
   * Signs `body` plus the `key_id` of the active key and `token_kind`. A body that already names either member is
   * refused (RimthanError 'invalid_json'): the signer alone sets them.
   */
  sign(kind: TokenKind, body: JsonObject): string {
    const encoded = b64url(canonicalJsonWithMembers(body, { key_id: this.#ring.activeKeyId, token_kind: kind }));
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
    // Nearly every token names the active key: its signature is checked before anything of the body is read.
    if (macMatches(this.#ring.activeSecret, encoded, signature)) {
      const verified = this.#authentic(kind, bodyBytes, this.#ring.activeKeyId);
      // invalid_signature here means the body names another key id, which a retired key may share the secret with.
      if (verified.ok || verified.reason !== 'invalid_signature') return verified;
    }
    // Otherwise the body is untrusted input: parse it strictly to learn which retired key it names.
    const parsed = parseStrictJsonBytes(bodyBytes, BODY_LIMITS);
    if (!parsed.ok || !isPlainObject(parsed.value)) return { ok: false, reason: 'malformed' };
    const keyId = parsed.value['key_id'];
    const secret =
      typeof keyId === 'string' && keyId !== this.#ring.activeKeyId ? this.#ring.secretFor(keyId) : undefined;
    // An unknown key id still costs one HMAC and answers like a bad signature.
    const macOk = macMatches(secret ?? this.#ring.activeSecret, encoded, signature);
    if (!macOk || secret === undefined || typeof keyId !== 'string') return { ok: false, reason: 'invalid_signature' };
    return this.#authentic(kind, bodyBytes, keyId);
  }

  /**
   * The body of a token whose signature verified under `keyId`. Only a signer holding that key wrote these bytes, and
   * it writes canonical JSON: the body must be valid UTF-8, parse, name `keyId`, and re-canonicalise to exactly the
   * signed text. That last check also refuses duplicate keys, lone surrogates and out-of-range numbers; the body
   * nests at most as deep as an untrusted one may, and has no `__proto__` key.
   */
  #authentic(kind: TokenKind, bodyBytes: Buffer, keyId: string): TokenVerification {
    if (!isUtf8(bodyBytes)) return { ok: false, reason: 'malformed' };
    const text = bodyBytes.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
      if (!isPlainObject(body) || !isPlainBody(body, MAX_BODY_DEPTH) || canonicalJson(body) !== text) {
        return { ok: false, reason: 'malformed' };
      }
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (body['key_id'] !== keyId) return { ok: false, reason: 'invalid_signature' };
    if (body['token_kind'] !== kind) return { ok: false, reason: 'wrong_kind' };
    return { ok: true, body, keyId };
  }
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when no object or array inside `value` sits deeper than `levels` (the value itself is level 1) and no object
 * has an own `__proto__` member (which JSON.parse creates as a plain own property).
 */
function isPlainBody(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (levels === 0 || (!Array.isArray(value) && Object.hasOwn(value, '__proto__'))) return false;
  for (const member of Object.values(value)) if (!isPlainBody(member, levels - 1)) return false;
  return true;
}

/** HMAC-SHA256 of `encoded` under `secret`, compared with `signature` in constant time. */
function macMatches(secret: Buffer, encoded: string, signature: Buffer): boolean {
  const expected = createHmac('sha256', secret).update(encoded).digest();
  return expected.length === signature.length && timingSafeEqual(expected, signature);
}
