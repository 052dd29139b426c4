/**
 * Tool contracts as the MCP layer serves them: name, description, closed JSON Schema 2020-12 input and output schemas
 * (kept verbatim on the wire) and annotations. Every contract is checked against the 2020-12 meta-schema and compiled
 * once, when a profile is built; a broken contract stops the server from starting instead of breaking clients later.
 * A contract whose schemas Rimthan ships unchanged (core/shipped-schemas.ts: verified by the test suite) skips the
 * check and is compiled on first use, so building a profile at start compiles nothing.
 */
import type { Tool } from '@modelcontextprotocol/server';
import {
  checkSchemaDocument,
  isShippedSchema,
  memoizeFrozenMembers,
  RimthanError,
  SchemaCompiler,
} from '../../core/index.js';
import type { CompiledSchema, JsonObject, JsonValue, SchemaIssue } from '../../core/index.js';
import { privateCacheMeta } from './wire.js';

/** Behaviour hints for clients. The MCP defaults are pessimistic, so every contract states all four. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What a profile declares for one tool. */
export interface ToolContract {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /**
   * What tools/list shows as the input schema, when it is a lighter view of `inputSchema` (the guided tools' host
   * view: guided/contracts/host-view.ts). It must accept every call `inputSchema` accepts; calls are always validated
   * against `inputSchema`.
   */
  readonly listedInputSchema?: JsonObject;
  readonly outputSchema: JsonObject;
  readonly annotations?: ToolAnnotations;
}

/** A checked contract with its compiled validators and its tools/list entry. */
export interface CompiledToolContract {
  readonly name: string;
  readonly checkInput: CompiledSchema;
  readonly checkOutput: CompiledSchema;
  readonly listing: Tool;
}

/** How a profile compiles its contracts. */
export interface ToolContractOptions {
  /** Default: a code-point-counting `new SchemaCompiler()`. */
  readonly compiler?: SchemaCompiler;
  /**
   * For a `compiler` whose issue paths are relative to the referenced `$defs` entry: a compiler with the same length
   * counting. On a schema's first failure, the schema with its `$defs` inlined ({@link inlineDefs}) is compiled with
   * it, and failures are reported with the full path from the argument down. Same verdicts, so passing values never
   * touch it.
   */
  readonly issueCompiler?: SchemaCompiler;
}

/**
 * `schema` with every `#/$defs/...` reference replaced by the shape it names (siblings such as `description` kept), so
 * that an issue's schema path runs from the argument down (`#/properties/checkpoint/required`) however deep the shared
 * shapes nest. Only for contracts, whose `$defs` never recurse (a cycle would be an authoring error: it throws).
 */
export function inlineDefs(schema: JsonObject): JsonObject {
  const defs = (schema['$defs'] ?? {}) as JsonObject;
  const walk = (node: JsonValue, trail: readonly string[]): JsonValue => {
    if (Array.isArray(node)) return node.map((item) => walk(item, trail));
    if (node === null || typeof node !== 'object') return node;
    const out: JsonObject = {};
    const target = node['$ref'];
    if (typeof target === 'string' && target.startsWith('#/$defs/')) {
      const name = target.slice('#/$defs/'.length);
      const def = defs[name];
      if (def === undefined || trail.includes(name)) throw contractFault('(inline)', `cannot inline ${target}`);
      Object.assign(out, walk(def, [...trail, name]) as JsonObject);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof target === 'string' && target.startsWith('#/$defs/')) continue;
      if (key === '$defs' && trail.length === 0) continue;
      out[key] = walk(value, trail);
    }
    return out;
  };
  return walk(schema, []) as JsonObject;
}

/** `check`, whose failures are re-reported with the full schema path by a lazily compiled inlining validator. */
function withFullIssuePaths(check: CompiledSchema, schema: JsonObject, issueCompiler?: SchemaCompiler): CompiledSchema {
  if (issueCompiler === undefined) return check;
  let detailed: CompiledSchema | undefined;
  let unavailable = false;
  return (value: unknown) => {
    const result = check(value);
    if (result.ok || unavailable) return result;
    try {
      detailed ??= issueCompiler.compile(inlineDefs(schema));
    } catch {
      unavailable = true; // it compiled once already; should this copy not, the short path still refuses
      return result;
    }
    const again = detailed(value);
    return again.ok ? result : again;
  };
}

/** Why a contract was refused, with the tool and schema named (never instance data: there is none here). */
function contractFault(name: string, detail: string): RimthanError {
  return new RimthanError('invalid_tool_contract', `tool contract ${name}: ${detail}`);
}

function describeIssue(issues: readonly SchemaIssue[]): string {
  const first = issues[0];
  return first === undefined ? 'invalid' : `${first.keyword} at ${first.schemaPath}`;
}

/**
 * Compiles one schema (strict 2020-12) and checks it with `checkSchemaDocument` (meta-schema + strict compile). The
 * compile comes first: with the default compiler, core's shared Ajv then finds the compiled schema in its cache, so the
 * check costs milliseconds instead of a second compile. A shipped schema passed both when the test suite ran: it is
 * compiled on its first use instead.
 */
function checkOne(
  name: string,
  which: 'input' | 'output',
  schema: JsonObject,
  compiler: SchemaCompiler,
): CompiledSchema {
  if (schema['type'] !== 'object') throw contractFault(name, `${which} schema must have type "object" at its root`);
  if (which === 'input' && schema['additionalProperties'] !== false && schema['unevaluatedProperties'] !== false) {
    throw contractFault(name, 'input schema must be a closed object');
  }
  if (isShippedSchema(schema)) return compiler.compileOrDefer(schema);
  let compiled: CompiledSchema | undefined;
  let cause: unknown;
  try {
    compiled = compiler.compile(schema);
  } catch (error) {
    cause = error;
  }
  const check = checkSchemaDocument(schema);
  if (!check.ok) {
    const detail = `is not a JSON Schema 2020-12 document (${describeIssue(check.issues)})`;
    throw new RimthanError('invalid_tool_contract', `tool contract ${name}: ${which} schema ${detail}`, { cause });
  }
  if (compiled === undefined) throw contractFault(name, `${which} schema does not compile`);
  return compiled;
}

/**
 * Checks a listed input view (never compiled: calls are validated against the full input schema): a closed object at
 * its root and, unless shipped, a JSON Schema 2020-12 document.
 */
function checkListed(name: string, schema: JsonObject): void {
  if (schema['type'] !== 'object' || schema['additionalProperties'] !== false) {
    throw contractFault(name, 'listed input schema must be a closed object');
  }
  if (isShippedSchema(schema)) return;
  const check = checkSchemaDocument(schema);
  if (!check.ok)
    throw contractFault(
      name,
      `listed input schema is not a JSON Schema 2020-12 document (${describeIssue(check.issues)})`,
    );
}

/**
 * Checks (checkSchemaDocument) and compiles a profile's contracts with `options.compiler`. Throws `invalid_tool_contract` for a schema that is not a valid 2020-12 document, a root that is not
 * `type: "object"` (one such tool breaks every SDK client's tools/list), an open input schema, a missing description,
 * or a duplicate name.
 */
export function compileToolContracts(
  contracts: readonly ToolContract[],
  options: ToolContractOptions = {},
): CompiledToolContract[] {
  const compiler = options.compiler ?? new SchemaCompiler();
  const seen = new Set<string>();
  return contracts.map((contract) => {
    const { name } = contract;
    if (seen.has(name)) throw contractFault(name, 'duplicate tool name');
    seen.add(name);
    if (contract.description.trim() === '') throw contractFault(name, 'missing description');
    const checkInput = withFullIssuePaths(
      checkOne(name, 'input', contract.inputSchema, compiler),
      contract.inputSchema,
      options.issueCompiler,
    );
    // Results embed the same frozen release fragments call after call: each is validated once (core/fragment-check).
    const checkOutput = memoizeFrozenMembers(
      contract.outputSchema,
      compiler,
      withFullIssuePaths(
        checkOne(name, 'output', contract.outputSchema, compiler),
        contract.outputSchema,
        options.issueCompiler,
      ),
    );
    const listed = contract.listedInputSchema ?? contract.inputSchema;
    if (listed !== contract.inputSchema) checkListed(name, listed);
    const listing: Tool = {
      name,
      description: contract.description,
      inputSchema: listed as Tool['inputSchema'],
      outputSchema: contract.outputSchema,
      _meta: privateCacheMeta(),
    };
    if (contract.title !== undefined) listing.title = contract.title;
    if (contract.annotations !== undefined) listing.annotations = { ...contract.annotations };
    return { name, checkInput, checkOutput, listing };
  });
}
