/**
 * What a harness can tell about a checkpoint envelope without the signing key: whether the envelope in the clear
 * still says what its token's body says. The body is read but not authenticated, so agreement proves nothing (only
 * the server's signature check does); disagreement, though, proves the envelope was edited after the server issued
 * it, and names the first member that differs (a version 2 token signs the members by digest, so there the change is
 * found but not named). The participant library uses it to name a hand-edited session file
 * before anything is sent.
 */
import { isJsonObject, parseStrictJsonBytes } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { claimsMembers } from './bound-token.js';
import { CHECKPOINT_TOKEN_SCHEMA_V2, decodeCheckpointBody } from './codec.js';
import { sameAsClean } from './same-json.js';
import { expectedEnvelope } from './state.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The token's body, strictly parsed, or undefined when the token is not `base64url(JSON).signature`. */
function unverifiedBody(token: string): JsonObject | undefined {
  const parts = token.split('.');
  if (parts.length !== 2 || !BASE64URL.test(parts[0] ?? '')) return undefined;
  const bytes = Buffer.from(parts[0] ?? '', 'base64url');
  if (bytes.toString('base64url') !== parts[0]) return undefined;
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: 16 * 1024 });
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** What checkpointEnvelopeDrift answers for a digest-bound token whose members were changed: one of them, unnamed. */
export const SOME_MEMBER = '*';

/**
 * The first envelope member that disagrees with the checkpoint token's body (`token` when the token cannot be read
 * as a checkpoint token at all; SOME_MEMBER for a digest-bound version 2 token, whose body names no member), or
 * undefined when the envelope says what the token says.
 */
export function checkpointEnvelopeDrift(envelope: JsonObject): string | undefined {
  const token = envelope['token'];
  if (typeof token !== 'string') return 'token';
  const body = unverifiedBody(token);
  if (body === undefined || body['token_kind'] !== 'checkpoint') return 'token';
  if (body['schema'] === CHECKPOINT_TOKEN_SCHEMA_V2) {
    const { token: _token, ...members } = envelope;
    return claimsMembers(body, members) ? undefined : SOME_MEMBER;
  }
  const state = decodeCheckpointBody(body);
  const keyId = body['key_id'];
  if (state === undefined || typeof keyId !== 'string') return 'token';
  const expected = expectedEnvelope(state, keyId, token);
  for (const [member, value] of Object.entries(expected)) {
    if (!sameAsClean(envelope[member], value)) return member;
  }
  return Object.keys(envelope).find((member) => !(member in expected));
}
