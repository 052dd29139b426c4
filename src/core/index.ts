/** core: pure building blocks (no I/O beyond what callers pass in). */
export type { JsonObject, JsonValue } from './json.js';
export { isJsonObject } from './json.js';
export {
  canonicalJson,
  freezeCanonicalFragment,
  hasLoneSurrogate,
  isFrozenFragment,
  MAX_CANONICAL_DEPTH,
} from './canonical-json.js';
export type { JsonLimits, StrictJsonResult } from './strict-json.js';
export { parseStrictJson, parseStrictJsonBytes, STRICT_JSON_DEFAULTS, StrictJsonReason } from './strict-json.js';
export { sha256Hex, digestJson } from './digest.js';
export { canonicalObject, firstIssue, MAX_DOCUMENT_BYTES } from './canonical-object.js';
export type { CanonicalObject } from './canonical-object.js';
export { asciiJson } from './ascii-json.js';
export type { CompiledSchema, SchemaCheck, SchemaIssue } from './schema.js';
export { SchemaCompiler, checkSchemaDocument, warmDeferredSchemas } from './schema.js';
export { isShippedSchema } from './shipped-schemas.js';
export { memoizeFrozenMembers } from './fragment-check.js';
export type { TokenVerification } from './tokens.js';
export {
  KeyRing,
  TokenSigner,
  TokenKind,
  parseRetiredKeys,
  MAX_TOKEN_LENGTH,
  MIN_SECRET_BYTES,
  MAX_RETIRED_KEYS,
} from './tokens.js';
export { RimthanError, isRimthanError } from './errors.js';
export type { FlatAnswer, FlatChoice, FlatField, FlatForm, FlatStringFormat } from './flat-form.js';
export { FLAT_FORM_LIMITS, flatFieldOf, flatFormOf, readFlatAnswer, withDefaults } from './flat-form.js';
export type { PendingQuestion, RequestStateCall, VerifiedRequestState } from './request-state.js';
export {
  DEFAULT_REQUEST_STATE_TTL_MS,
  REQUEST_STATE_SCHEMA,
  RequestStateCodec,
  RequestStateError,
  RequestStateReason,
} from './request-state.js';
export type { Clock } from './clock.js';
export { systemClock } from './clock.js';
export { LruCache } from './lru.js';
export { NotifyHub } from './notify-hub.js';
