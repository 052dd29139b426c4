/**
 * Digest-bound tokens (token schema version 2 of checkpoints and validation bundles). The object a harness copies
 * back already carries every member in the clear, so its token signs only their SHA-256: `{schema, sha256}` (plus the
 * signer's `token_kind` and `key_id`) instead of a second, compact copy of the same members. The harness's model reads
 * and resends each checkpoint a dozen times over a workflow; this keeps the token about 190 characters whatever the
 * step, where a version 1 token grew past 1.4 KB with the receipts.
 *
 * The binding is as strong: the HMAC covers the digest of the canonical JSON of exactly the members the server issued,
 * so changing, adding or removing any member changes the digest and the token no longer verifies. Version 1 tokens keep
 * verifying (codec.ts), so checkpoints issued before an upgrade still resume.
 */
import { SchemaCompiler, digestJson } from '../../core/index.js';
import type { JsonObject, TokenKind, TokenSigner } from '../../core/index.js';
import { closedObject, keyIdSchema } from '../contracts/primitives.js';

const b64Digest: JsonObject = { type: 'string', minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' };

/** The digest a version 2 token signs for `members`: SHA-256 of their canonical JSON, unpadded base64url. */
function digestOf(members: JsonObject): string {
  return Buffer.from(digestJson(members), 'hex').toString('base64url');
}

/** Signing and checking digest-bound tokens of one kind and token schema. */
export interface BoundTokens {
  /** Signs `members` (the copied object without its token) by digest. */
  sign(signer: TokenSigner, members: JsonObject): string;
  /** True when a verified token `body` is a well-formed body of this kind and schema that binds exactly `members`. */
  binds(body: JsonObject, members: JsonObject): boolean;
}

/** The closed body schema of version 2 tokens of `kind` under token schema `schema` (a shipped document). */
export function boundBodySchema(kind: TokenKind, schema: string): JsonObject {
  return closedObject({
    schema: { type: 'string', enum: [schema] },
    token_kind: { type: 'string', enum: [kind] },
    key_id: keyIdSchema,
    sha256: b64Digest,
  });
}

/** The bound tokens of `kind` under token schema `schema` (their body check compiled on its first use). */
export function boundTokens(kind: TokenKind, schema: string): BoundTokens {
  const check = new SchemaCompiler({ unicodeLength: false }).compileOrDefer(boundBodySchema(kind, schema));
  return {
    sign: (signer, members) => signer.sign(kind, { schema, sha256: digestOf(members) }),
    binds: (body, members) => check(body).ok && body['sha256'] === digestOf(members),
  };
}

/** Whether an unverified token body claims to bind `members` (for a harness's own drift check, never for trust). */
export function claimsMembers(body: JsonObject, members: JsonObject): boolean {
  return typeof body['sha256'] === 'string' && body['sha256'] === digestOf(members);
}
