/**
 * Nothing a server sends is used before it is checked: a tool result against the guided contract's output schema of
 * that tool (the published contracts, compiled with core's SchemaCompiler), a tool error against its `{error: {code,
 * message}}` shape, and a JSON resource (release summary, workflow definition, schema) parsed as strict JSON (size,
 * depth, duplicate keys) and checked for the fields the participant reads. A mismatch is `server_mismatch` naming the
 * tool or URI and the schema path that failed, never the value.
 */
import { isJsonObject, parseStrictJson, SchemaCompiler } from '../core/index.js';
import type { CompiledSchema, JsonObject } from '../core/index.js';
import { GUIDED_TOOL_CONTRACTS } from '../guided/index.js';
import type { GuidedToolName } from '../guided/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';

/** The deepest nesting accepted in anything served (the contracts nest far less). */
export const MAX_SERVED_DEPTH = 64;
/** The largest resource text accepted (characters). */
export const MAX_RESOURCE_CHARS = 8 * 1024 * 1024;

// Each `$ref` its own function: the contracts have many `$defs`, and this compiles them faster (same verdicts).
const compiler = new SchemaCompiler({ inlineRefs: false });
const checks = new Map<string, CompiledSchema>();

function checkOf(key: string, schema: () => JsonObject): CompiledSchema {
  let check = checks.get(key);
  if (check === undefined) {
    check = compiler.compileOrDefer(schema());
    checks.set(key, check);
  }
  return check;
}

/** True when `value` nests arrays and objects deeper than `max` (an iterative walk: no stack to exhaust). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

function mismatch(what: string, why: string): ParticipantError {
  return new ParticipantError(ParticipantErrorCode.ServerMismatch, `the server sent ${what} that ${why}`);
}

function checked(value: unknown, check: CompiledSchema, what: string): JsonObject {
  if (nestsDeeperThan(value, MAX_SERVED_DEPTH)) throw mismatch(what, `nests deeper than ${MAX_SERVED_DEPTH} levels`);
  const verdict = check(value);
  if (!verdict.ok) {
    throw mismatch(what, `does not have the documented shape (at ${verdict.issues[0]?.schemaPath ?? '#'})`);
  }
  return value as JsonObject;
}

/** A successful tool result, checked against the tool's output schema. */
export function checkToolResult(tool: GuidedToolName, value: unknown): JsonObject {
  const contract = GUIDED_TOOL_CONTRACTS.find((c) => c.name === tool);
  if (contract === undefined) throw mismatch(`an answer to ${tool}`, 'no guided tool has');
  return checked(
    value,
    checkOf(tool, () => contract.outputSchema),
    `an answer to ${tool}`,
  );
}

const TOOL_ERROR: JsonObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', maxLength: 64 },
        message: { type: 'string', maxLength: 4096 },
        reason: { type: 'string', maxLength: 64 },
      },
    },
  },
};

/** A tool error result (`isError`), checked as `{error: {code, message, reason?}}`. */
export function checkToolError(
  tool: GuidedToolName,
  value: unknown,
): { code: string; message: string; reason?: string } {
  const body = checked(
    value,
    checkOf('tool-error', () => TOOL_ERROR),
    `an error answer to ${tool}`,
  );
  return body['error'] as unknown as { code: string; message: string; reason?: string };
}

const text = (maxLength = 1024): JsonObject => ({ type: 'string', maxLength });
const list = (items: JsonObject, maxItems = 10_000): JsonObject => ({ type: 'array', items, maxItems });
const object = (properties: Record<string, JsonObject>, required: readonly string[] = []): JsonObject => ({
  type: 'object',
  properties,
  required: [...required],
});
const REF = object({ id: text(), version: text() }, ['id', 'version']);

/** The members of each resource the participant reads (other members are left alone). */
const RESOURCES = {
  summary: object(
    {
      release: text(),
      registry_id: text(),
      manifest_sha256: text(),
      workflows: list(
        object(
          {
            id: text(),
            version: text(),
            entry_aliases: list(text()),
            definition_uri: { type: 'string', maxLength: 1024, pattern: '^rimthan://' },
          },
          ['id', 'version', 'definition_uri'],
        ),
      ),
    },
    ['release', 'registry_id', 'manifest_sha256', 'workflows'],
  ),
  definition: object(
    {
      id: text(),
      version: text(),
      start_step: text(),
      confirmed_state_schema: REF,
      host_adapters: { type: 'object', additionalProperties: REF },
      steps: list(
        object(
          {
            id: text(),
            title: text(4096),
            next: text(),
            outputs: list(object({ artifact_id: text(), path: text() }, ['artifact_id', 'path'])),
            validators: list(REF),
            branches: list(
              object(
                {
                  when: object({ field: text(), in: list({}) }, ['field']),
                },
                ['when'],
              ),
            ),
            question: object({ field: text(), prompt: text(4096) }),
          },
          ['id'],
        ),
      ),
    },
    ['id', 'version', 'start_step', 'steps'],
  ),
  schema: object({ properties: { type: 'object' } }),
} satisfies Record<string, JsonObject>;
export type ServedResource = keyof typeof RESOURCES;

/** A JSON resource's text as a checked object of its kind. */
export function checkResourceJson(kind: ServedResource, uri: string, text: string): JsonObject {
  const what = `${uri.length > 200 ? `${uri.slice(0, 200)}…` : uri}`;
  const parsed = parseStrictJson(text, { maxBytes: MAX_RESOURCE_CHARS * 4, maxDepth: MAX_SERVED_DEPTH });
  if (!parsed.ok) throw mismatch(`${what}`, `is not one JSON document (${parsed.reason})`);
  if (!isJsonObject(parsed.value)) throw mismatch(what, 'is not a JSON object');
  return checked(
    parsed.value,
    checkOf(`resource:${kind}`, () => RESOURCES[kind]),
    what,
  );
}
