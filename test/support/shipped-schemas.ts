/**
 * Every JSON Schema document Rimthan ships, found where it lives: the guided and run tool contracts (with the member
 * documents their output checks compile), the checkpoint and validation-bundle token bodies, the example flow's schemas
 * and the packaged releases' schemas. test/core/shipped-schemas.test.ts holds src/core/shipped-schemas.ts to exactly
 * this set; scripts/pin-shipped-schemas.mjs writes that file from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestJson } from '../../src/core/index.js';
import { packageRoot } from '../../src/package/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { memberDocuments } from '../../src/core/fragment-check.js';
import { boundBodySchema } from '../../src/guided/checkpoint/bound-token.js';
import { BUNDLE_BODY_SCHEMA, BUNDLE_TOKEN_SCHEMA_V2 } from '../../src/guided/checkpoint/bundle.js';
import { CHECKPOINT_BODY_SCHEMA, CHECKPOINT_TOKEN_SCHEMA_V2 } from '../../src/guided/checkpoint/codec.js';
import { GUIDED_TOOL_CONTRACTS } from '../../src/guided/index.js';
import { releaseNotesFlow } from '../../src/runs/index.js';
import { RUN_TOOL_SPECS } from '../../src/tools/bundle.js';

export interface ShippedSchema {
  /** Where the document comes from (for messages). */
  readonly source: string;
  readonly schema: JsonObject;
}

function contractDocuments(
  name: string,
  input: JsonObject,
  output: JsonObject,
  listed: JsonObject = input,
): ShippedSchema[] {
  const members = [...(memberDocuments(output) ?? new Map<string, JsonObject>())].map(([member, schema]) => ({
    source: `${name} output member ${member}`,
    schema,
  }));
  const view = listed === input ? [] : [{ source: `${name} listed input`, schema: listed }];
  return [
    { source: `${name} input`, schema: input },
    ...view,
    { source: `${name} output`, schema: output },
    ...members,
  ];
}

function packagedReleaseSchemas(): ShippedSchema[] {
  const folder = join(packageRoot(), 'releases', 'dist');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const release = JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
        schemas: { id: string; version: string; schema: JsonObject }[];
      };
      return release.schemas.map((s) => ({ source: `releases/dist/${file} ${s.id}@${s.version}`, schema: s.schema }));
    });
}

function exampleFlowSchemas(): ShippedSchema[] {
  const flow = releaseNotesFlow({ workspace: '.' }) as unknown as Record<string, JsonObject | undefined>;
  return (['inputSchema', 'resumeSchema', 'stateSchema'] as const).flatMap((field) => {
    const schema = flow[field];
    return schema === undefined ? [] : [{ source: `release_notes ${field}`, schema }];
  });
}

/** Every shipped document, in a stable order (duplicates included: releases share schemas). */
export function shippedSchemas(): ShippedSchema[] {
  return [
    ...GUIDED_TOOL_CONTRACTS.flatMap((c) =>
      contractDocuments(c.name, c.inputSchema, c.outputSchema, c.listedInputSchema),
    ),
    ...RUN_TOOL_SPECS.flatMap((s) => contractDocuments(s.name, s.inputSchema, s.outputSchema)),
    { source: 'checkpoint token body', schema: CHECKPOINT_BODY_SCHEMA },
    { source: 'validation bundle token body', schema: BUNDLE_BODY_SCHEMA },
    { source: 'checkpoint token body, version 2', schema: boundBodySchema('checkpoint', CHECKPOINT_TOKEN_SCHEMA_V2) },
    {
      source: 'validation bundle token body, version 2',
      schema: boundBodySchema('validation-bundle', BUNDLE_TOKEN_SCHEMA_V2),
    },
    ...exampleFlowSchemas(),
    ...packagedReleaseSchemas(),
  ];
}

/** The sorted, distinct digests of {@link shippedSchemas}. */
export function shippedSchemaDigests(): string[] {
  return [...new Set(shippedSchemas().map((s) => digestJson(s.schema)))].sort();
}
