/**
 * The one error vocabulary: every code a RimthanError (or an HTTP edge's error body) carries, one spelling per code.
 * `ErrorCode` is derived from this list, `RimthanError.code` is typed by it, and each room's own subset (the run tools'
 * codes, the guided engine's, the participant library's, the release store's refusals) is checked against it, so a new
 * spelling fails the type-check instead of reaching a caller. Codes are frozen public contract once shipped: a caller
 * branches on them (tool results, Admin API and console answers, `rimthan: <code>: <message>` on the CLI).
 */

/**
 * The run tools' contract codes (spec: run-tools-contract.md, "every error carries a stable string code"). The console
 * and the Admin API answer with the same words for the same causes.
 */
export const TOOL_CONTRACT_CODES = [
  /** Arguments break the tool's (or an endpoint's, or a store's) argument rules. */
  'invalid_arguments',
  'not_found',
  /** A status that does not allow the call, a lost compare-and-swap, an idempotency key reused with other input. */
  'conflict',
  'unknown_definition',
  /** Input or resume payload breaks the definition's schema. */
  'invalid_input',
  'resume_not_supported',
  /** A dependency failed; retrying later may help. */
  'unavailable',
  /** The person asked through a form declined to answer (elicited resume). */
  'declined',
  /** An unexpected fault; the message never says more. */
  'internal',
] as const;

/** The guided engine's tool errors (spec: guided-protocol.md); the closed reason word travels beside them. */
export const GUIDED_CODES = ['workflow_checkpoint_error', 'workflow_protocol_error'] as const;

/** Answers of the HTTP edges (MCP, Admin API, console) before a request reaches an operation. */
export const HTTP_EDGE_CODES = [
  /** A body that is not strict JSON. */
  'parse_error',
  'unauthorized',
  'forbidden',
  'method_not_allowed',
  'too_large',
  'unsupported_media_type',
  'too_many_streams',
  /** The client went away before the body was read (never answered). */
  'gone',
  /** A bearer token that cannot be checked because no key set is available. */
  'unauthenticated',
  /** The client did not send its request (headers or body) in time. */
  'request_timeout',
] as const;

/** Refusals of the release store and the release channels (folder and PostgreSQL answer alike). */
export const RELEASE_STORE_CODES = [
  /** Release bytes that do not verify (the reason word names why). */
  'release_invalid',
  /** A release name that already holds other bytes. */
  'release_immutable',
  /** A stale expected_current in a channel compare-and-swap. */
  'channel_conflict',
  /** A channel names a release the store does not hold (or holds unverifiable). */
  'release_unavailable',
  'no_active_release',
  /** A rollback with nothing to roll back to. */
  'no_previous_release',
  /** A stored release whose content the guided engine cannot serve (a step, validator or transition it lacks). */
  'invalid_release',
] as const;

/** The durable run layer: flow definitions, the catalog and the run store's own refusals. */
export const RUNS_CODES = [
  'invalid_definition',
  'duplicate_definition',
  /** A deployment would remove a definition version that live runs still use. */
  'definition_in_use',
  /** A store migration refused because another process holds the store. */
  'store_in_use',
] as const;

/** Settings, keys and contracts checked when a process starts; a deployment fixes these, a caller cannot. */
export const CONFIG_CODES = [
  'invalid_config',
  'invalid_signing_key',
  'insecure_signing_key',
  'signing_key_missing',
  'invalid_tool_contract',
  'invalid_capability',
  'invalid_schema',
  'listen_failed',
  'bootstrap_unavailable',
  'console_assets_missing',
  'store_invalid',
  'store_missing',
  'store_unavailable',
  'flows_invalid',
  'flows_unavailable',
] as const;

/** Pure data checks in core (canonical JSON, request-state tokens). */
export const DATA_CODES = [
  /** A value canonical JSON cannot represent. */
  'invalid_json',
  /** A request state built from incomplete parts (a programming error). */
  'invalid_request_state',
  /** A request-state token refused on verification (the reason word names why). */
  'request_state_invalid',
] as const;

/** The participant library's refusals (src/participant/errors.ts documents each). */
export const PARTICIPANT_CODES = [
  'unsafe_path',
  'symlink_refused',
  'not_a_file',
  'output_missing',
  'write_policy_violation',
  'artifact_unreadable',
  'asset_digest_mismatch',
  'delivery_unavailable',
  'report_missing',
  'report_extra',
  'report_duplicate',
  'report_stale',
  'report_invalid',
  /** Also the CLI's answer for a stdio session file that is not one. */
  'session_invalid',
  'session_tampered',
  'session_missing',
  'wrong_step',
  'server_refused',
  'server_mismatch',
] as const;

/** Outcomes of CLI commands (the exit code is 2 for `usage`, 1 for the rest). */
export const CLI_CODES = [
  'usage',
  'admin_unreachable',
  /** The Admin API answered something that is not its JSON error. */
  'unexpected_answer',
  'cwd_unavailable',
  'input_too_large',
  'out_not_empty',
  'source_invalid',
  /** `registry test`: a scenario failed, or a workflow's route coverage is below --min-coverage. */
  'route_test_failed',
  'session_unavailable',
  // a guided step that did not end in success, as `rimthan participant` reports it
  'blocked',
  'input_required',
  'confirmation_required',
  'not_confirmed',
  'deterministic_validation_failed',
  'validation_failed',
  'invalid_answers',
  'validator_command_failed',
] as const;

/** Failures of the shipped example flows' steps (src/runs/examples), recorded as a failed run's summary. */
export const EXAMPLE_FLOW_CODES = [
  'aborted',
  'git_unavailable',
  'git_output_too_large',
  'git_log_failed',
  'not_a_git_repository',
  'no_head_commit',
  'tag_not_found',
  'outside_workspace',
  'repository_not_found',
  'draft_too_large',
  'no_commits_since_tag',
  'too_many_commits',
  'version_in_changelog',
] as const;

/** Every error code, each once. */
export const ERROR_CODES = [
  ...TOOL_CONTRACT_CODES,
  ...GUIDED_CODES,
  ...HTTP_EDGE_CODES,
  ...RELEASE_STORE_CODES,
  ...RUNS_CODES,
  ...CONFIG_CODES,
  ...DATA_CODES,
  ...PARTICIPANT_CODES,
  ...CLI_CODES,
  ...EXAMPLE_FLOW_CODES,
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `value` is one of the error codes (for codes read from outside, e.g. another process's answer). */
export function isErrorCode(value: string): value is ErrorCode {
  return CODES.has(value);
}
