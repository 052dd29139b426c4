/**
 * The JSON Schema of a route scenario file (docs/authoring/scenarios.md): the one `registry test` checks scenarios
 * with, and the one scripts/write-authoring-schemas.mjs writes to schemas/authoring/scenario.schema.json for editors.
 * Harnesses, capabilities and the id and version rules come from the registry model, so they cannot drift from it.
 */
import type { JsonObject } from '../core/index.js';
import { Harness, HostCapability, ID_SCHEMA, ValidatorCapability, VERSION_SCHEMA } from '../registry/index.js';

/** The scenario schema document. */
export const SCENARIO_SCHEMA: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Rimthan route scenario',
  description:
    'One route through one workflow of a source folder, walked through the real engine by `rimthan registry test`. File: <source>/scenarios/<workflow-id>/<name>.yaml. See docs/authoring/scenarios.md.',
  type: 'object',
  additionalProperties: false,
  required: ['title', 'workflow', 'host', 'state', 'steps', 'end'],
  properties: {
    title: {
      description: 'What this route shows, in one line (printed by `registry test`).',
      type: 'string',
      minLength: 1,
      maxLength: 200,
    },
    description: {
      description: 'Optional longer notes for reviewers.',
      type: 'string',
      maxLength: 4000,
    },
    workflow: {
      description: 'The workflow id; must equal the folder the scenario lives in (scenarios/<workflow-id>/).',
      $ref: '#/$defs/id',
    },
    workflow_version: {
      description: 'The exact workflow version; default: the newest version of the workflow in the source.',
      $ref: '#/$defs/version',
    },
    host: {
      $ref: '#/$defs/host',
    },
    state: {
      description:
        "The confirmed state at start (field \u2192 value), confirmed by the person at start; must match the workflow's confirmed-state schema.",
      $ref: '#/$defs/fields',
    },
    steps: {
      description: "The route's steps in the order the engine reaches them, from setup-workspace to the terminal step.",
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: {
        $ref: '#/$defs/step',
      },
    },
    end: {
      description: 'How the route ends.',
      const: 'completed',
    },
  },
  $defs: {
    id: ID_SCHEMA,
    version: VERSION_SCHEMA,
    field: {
      type: 'string',
      maxLength: 64,
      pattern: '^[a-z][a-z0-9_]{0,63}$',
    },
    fields: {
      type: 'object',
      maxProperties: 64,
      propertyNames: {
        $ref: '#/$defs/field',
      },
    },
    fixture: {
      description:
        "A fixture file, relative to the scenario's folder (scenarios/<workflow-id>/), POSIX separators, no '..' segment, not absolute.",
      type: 'string',
      minLength: 1,
      maxLength: 512,
      pattern: '^(?!/)(?!.*(?:^|/)\\.\\.?(?:/|$))[^\\\\\\u0000-\\u001f]+$',
    },
    host: {
      description: 'The host declared at start: the harness, its capabilities, and how host assets are delivered.',
      type: 'object',
      additionalProperties: false,
      required: ['harness', 'host_capabilities', 'validator_capabilities'],
      properties: {
        harness: {
          enum: Object.values(Harness),
        },
        adapter: {
          description: 'The host adapter to bind; default: the one the workflow pins for the harness.',
          type: 'object',
          additionalProperties: false,
          required: ['id', 'version'],
          properties: {
            id: {
              $ref: '#/$defs/id',
            },
            version: {
              $ref: '#/$defs/version',
            },
          },
        },
        host_capabilities: {
          type: 'array',
          uniqueItems: true,
          maxItems: 16,
          items: {
            enum: Object.values(HostCapability),
          },
        },
        validator_capabilities: {
          type: 'array',
          uniqueItems: true,
          maxItems: 16,
          items: {
            enum: Object.values(ValidatorCapability),
          },
        },
        project_local: {
          description:
            'Write host assets as project-local files where the adapter offers it (default false: dynamic context).',
          type: 'boolean',
        },
      },
    },
    step: {
      description: 'One step of the route, in the order it is reached.',
      type: 'object',
      additionalProperties: false,
      required: ['step'],
      properties: {
        step: {
          description: 'The step id the engine must be at.',
          $ref: '#/$defs/id',
        },
        confirm: {
          description:
            "Confirmed-state fields the person confirms at this step (field \u2192 value), sent with continue before the step's work.",
          $ref: '#/$defs/fields',
        },
        artifacts: {
          description:
            "Artifact id \u2192 fixture file written to the artifact's declared path. Every output of a gated step needs one, except setup-workspace's workspace-manifest (written from the host attestation unless given).",
          type: 'object',
          maxProperties: 64,
          propertyNames: {
            $ref: '#/$defs/id',
          },
          additionalProperties: {
            $ref: '#/$defs/fixture',
          },
        },
        refused: {
          description:
            'Fixtures the deterministic check must refuse, tried in order before the accepted artifacts: each replaces one artifact, prepare must answer deterministic_validation_failed with `code` for that artifact.',
          type: 'array',
          maxItems: 64,
          items: {
            $ref: '#/$defs/refusal',
          },
        },
        reports: {
          description:
            'Validator report rounds, in order. Each round names exactly the validators the engine asks for. Default when absent: one round in which every due validator passes.',
          type: 'array',
          minItems: 1,
          maxItems: 32,
          items: {
            $ref: '#/$defs/round',
          },
        },
        revised: {
          description:
            'Fixtures rewritten between rounds, as a harness fixes its work after failed reports: entry k (from 1) holds the artifact id \u2192 fixture written after round k, before round k+1 is prepared. Needs a round after it.',
          type: 'array',
          maxItems: 31,
          items: {
            type: 'object',
            maxProperties: 64,
            propertyNames: {
              $ref: '#/$defs/id',
            },
            additionalProperties: {
              $ref: '#/$defs/fixture',
            },
          },
        },
        answer: {
          description:
            "The answer to the step's question (a value of its confirmed-state field), confirmed when the engine asks it.",
          anyOf: [
            {
              type: 'string',
            },
            {
              type: 'number',
            },
            {
              type: 'boolean',
            },
          ],
        },
      },
    },
    refusal: {
      type: 'object',
      additionalProperties: false,
      required: ['artifact', 'fixture', 'code'],
      properties: {
        artifact: {
          description: 'The artifact the fixture replaces.',
          $ref: '#/$defs/id',
        },
        fixture: {
          $ref: '#/$defs/fixture',
        },
        code: {
          description: 'The deterministic failure code prepare must report for this artifact.',
          enum: [
            'artifact_too_large',
            'invalid_json',
            'json_schema_failed',
            'empty_artifact',
            'workspace_manifest_contract_mismatch',
          ],
        },
        because: {
          description: 'Optional: why the fixture must be refused, for reviewers.',
          type: 'string',
          maxLength: 1000,
        },
      },
    },
    round: {
      description: 'One submission: validator id \u2192 its report.',
      type: 'object',
      minProperties: 1,
      maxProperties: 32,
      propertyNames: {
        $ref: '#/$defs/id',
      },
      additionalProperties: {
        $ref: '#/$defs/report',
      },
    },
    report: {
      oneOf: [
        {
          description: 'Shorthand for {outcome: passed, findings: []}.',
          const: 'passed',
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['outcome', 'findings'],
          properties: {
            outcome: {
              enum: ['passed', 'failed'],
            },
            findings: {
              type: 'array',
              maxItems: 64,
              items: {
                $ref: '#/$defs/finding',
              },
            },
          },
        },
      ],
    },
    finding: {
      type: 'object',
      additionalProperties: false,
      required: ['severity', 'message'],
      properties: {
        severity: {
          enum: ['error', 'warning', 'info'],
        },
        message: {
          type: 'string',
          minLength: 1,
          maxLength: 4000,
        },
        artifact_id: {
          $ref: '#/$defs/id',
        },
        location: {
          type: 'string',
          maxLength: 512,
        },
      },
    },
  },
};
