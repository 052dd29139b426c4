/**
 * Schema fragments shared by the seven tools. Every schema is JSON Schema 2020-12 with `type: object` at the root and
 * closed objects throughout (`additionalProperties: false`); nothing uses `$dynamicRef`, formats or remote refs.
 */
import type { JsonObject } from '../core/index.js';
import { ActivityKind, RunStatus } from '../runs/store/index.js';
import { UUID_PATTERN } from './strict-args.js';

/** Most entries a page (list, history) may hold, and the default. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 50 } as const;

export const RFC3339_UTC_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$';

export function uuidSchema(description: string): JsonObject {
  return { type: 'string', minLength: 36, maxLength: 36, pattern: UUID_PATTERN, description };
}

export function nameSchema(description: string): JsonObject {
  return { type: 'string', minLength: 1, maxLength: 128, description };
}

export function limitSchema(description: string): JsonObject {
  return { type: 'integer', minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, description };
}

export function closedObject(properties: JsonObject, required: string[] = []): JsonObject {
  return { type: 'object', properties, required, additionalProperties: false };
}

const timestamp: JsonObject = { type: 'string', pattern: RFC3339_UTC_PATTERN };
const runStatus: JsonObject = { type: 'string', enum: Object.values(RunStatus) };

export const runStatusSchema = runStatus;

/** The safe run result's properties (start adds `idempotent`). */
export function safeRunProperties(): JsonObject {
  return {
    run_id: uuidSchema('The run ID (lowercase UUID).'),
    definition_name: { type: 'string' },
    definition_version: { type: 'string' },
    run_status: runStatus,
    status_summary: { type: 'string', minLength: 1, maxLength: 1024 },
    checkpoint_revision: { type: 'integer', minimum: -1 },
    activity_cursor: { type: 'integer', minimum: 0 },
    parent_run_id: uuidSchema('The parent run ID.'),
    artifacts: {
      type: 'array',
      minItems: 1,
      maxItems: 128,
      items: closedObject(
        {
          id: { type: 'string' },
          kind: { type: 'string' },
          digest: { type: 'string' },
          size: { type: 'integer', minimum: 0 },
        },
        ['id', 'kind', 'digest', 'size'],
      ),
    },
    created_at: timestamp,
    updated_at: timestamp,
    interrupt: closedObject(
      {
        reason: { type: 'string', enum: ['awaiting_input', 'task_failed'] },
        vertex: { type: 'string' },
        vertex_label: { type: 'string' },
        resume_supported: { type: 'boolean' },
      },
      ['reason', 'vertex', 'vertex_label', 'resume_supported'],
    ),
  };
}

export const SAFE_RUN_REQUIRED = [
  'run_id',
  'definition_name',
  'definition_version',
  'run_status',
  'checkpoint_revision',
  'activity_cursor',
  'created_at',
  'updated_at',
];

/** The safe run result as a closed object schema. */
export function safeRunSchema(): JsonObject {
  return closedObject(safeRunProperties(), [...SAFE_RUN_REQUIRED]);
}

/** One projected history entry. */
export function historyEntrySchema(): JsonObject {
  return closedObject(
    {
      revision: { type: 'integer', minimum: 0 },
      event_id: uuidSchema('Deterministic event ID.'),
      kind: { type: 'string', enum: Object.values(ActivityKind) },
      run_status: runStatus,
      occurred_at: timestamp,
      vertex_id: { type: 'string' },
      vertex_label: { type: 'string' },
      completed_vertices: { type: 'integer', minimum: 0 },
      total_vertices: { type: 'integer', minimum: 0 },
      message: { type: 'string' },
    },
    ['revision', 'event_id', 'kind', 'run_status', 'occurred_at'],
  );
}
