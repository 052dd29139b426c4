/**
 * The scenario schema (scenario-json-schema.ts; shipped as schemas/authoring/scenario.schema.json, the one editors use)
 * compiled once, and its verdict on a parsed scenario file as one problem at the path that broke it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajv2020 } from '../core/schema.js';
import type { ScenarioPath } from './scenario.js';
import { SCENARIO_SCHEMA } from './scenario-json-schema.js';

/** Where the scenario schema ships, relative to the package root. */
export const SCENARIO_SCHEMA_PATH = 'schemas/authoring/scenario.schema.json';

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const Ajv = ajv2020();
    compiled = new Ajv({ strict: true, ownProperties: true, allErrors: false, $data: false }).compile(SCENARIO_SCHEMA);
  }
  return compiled;
}

/** Why a scenario breaks the schema: the path to point at and words for the author; undefined when it is valid. */
export interface SchemaVerdict {
  readonly path: ScenarioPath;
  readonly message: string;
}

function pathOf(instancePath: string, data: unknown): ScenarioPath {
  if (instancePath === '') return [];
  const path: (string | number)[] = [];
  let node = data;
  for (const raw of instancePath.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key = Array.isArray(node) ? Number(part) : part;
    path.push(key);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[String(key)] : undefined;
  }
  return path;
}

function where(path: ScenarioPath): string {
  return path.length === 0
    ? 'the scenario'
    : path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
        .join('')
        .slice(1);
}

function words(e: ErrorObject, path: ScenarioPath): SchemaVerdict {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      return { path: [...path, key], message: `unknown key "${key}" in ${where(path)}` };
    }
    case 'required':
      return { path, message: `${where(path)} is missing the key "${String(params['missingProperty'])}"` };
    case 'enum':
      return {
        path,
        message: `${where(path)} must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { path, message: `${where(path)} must be ${JSON.stringify(params['allowedValue'])}` };
    case 'oneOf':
    case 'anyOf':
      return e.schemaPath.startsWith('#/$defs/report/')
        ? { path, message: `${where(path)} must be "passed" or {outcome: passed|failed, findings: [...]}` }
        : {
            path,
            message: `${where(path)} must be ${e.schemaPath.includes('answer') ? 'a string, number or boolean' : 'of another form'}`,
          };
    default:
      return { path, message: `${where(path)} ${e.message ?? 'is invalid'}` };
  }
}

const PREFERRED = ['additionalProperties', 'required', 'oneOf', 'anyOf'];

/** The schema's verdict on `data`: the deepest error it reports, in the author's words. */
export function checkScenarioShape(data: unknown): SchemaVerdict | undefined {
  const validate = validator();
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  // A oneOf reports its alternatives' errors before its own: the deepest path names the member that is wrong, and at one
  // depth an unknown or missing key says more than the alternatives' own complaints.
  const rank = (e: ErrorObject): number =>
    PREFERRED.indexOf(e.keyword) === -1 ? PREFERRED.length : PREFERRED.indexOf(e.keyword);
  const depth = (e: ErrorObject): number => e.instancePath.split('/').length;
  const best = [...errors].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b))[0];
  if (best === undefined) return { path: [], message: 'the scenario does not match the scenario schema' };
  return words(best, pathOf(best.instancePath, data));
}
