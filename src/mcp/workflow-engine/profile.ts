/**
 * The workflow-engine profile: exactly the four guided tools, the release resources and templates, the bootstrap
 * prompt, and the Skills extension serving each release's skill assets (extensions/skills.ts). Each call runs against
 * the release its checkpoint names (pinned, loaded on demand) or the active release; a continue call carrying
 * `migration` gets the provider's separately verified migration target (none set: refused).
 */
import type { Clock, JsonObject, TokenSigner } from '../../core/index.js';
import { RequestStateCodec, RimthanError, SchemaCompiler, systemClock } from '../../core/index.js';
import {
  CatalogueCache,
  checkpointRelease,
  createGuidedEngine,
  elicitedContinue,
  createReleaseScope,
  PUBLISHED_SCHEMA_RESOURCES,
  GUIDED_TOOL_CONTRACTS,
  GuidedToolName,
} from '../../guided/index.js';
import type { GuidedEngine, ReleaseScope } from '../../guided/index.js';
import { loadBootstrapParagraph } from './bootstrap.js';
import type { McpProfile, ToolEntry, ToolRound } from '../server/profile.js';
import { ProfileName, WORKFLOW_ENGINE_MAX_REQUEST_BYTES } from '../server/profile.js';
import { ReleaseScopes } from './release-scopes.js';
import type { ReleaseProvider, Scoped } from './release-scopes.js';
import { releaseSkills } from './release-skills.js';
import { createSkillsExtension } from '../extensions/skills.js';
import type { FaultReporter, ToolAnswer, ToolOutcome } from '../server/tool-call.js';
import { compileToolContracts } from '../server/tool-contract.js';
import type { CompiledToolContract } from '../server/tool-contract.js';
import { workflowPrompts, workflowResources } from './workflow-resources.js';

type Operation = (
  engine: GuidedEngine,
  call: {
    scoped: Scoped<ReleaseScope>;
    active: Scoped<ReleaseScope>;
    target: Scoped<ReleaseScope> | undefined;
    args: JsonObject;
  },
) => JsonObject;

const OPERATIONS: Readonly<Record<GuidedToolName, Operation>> = {
  [GuidedToolName.StartWorkflow]: (engine, { active, args }) => engine.startWorkflow(active.scope, args),
  [GuidedToolName.ContinueWorkflow]: (engine, { scoped, target, args }) =>
    args['migration'] === undefined
      ? engine.continueWorkflow(scoped.scope, args)
      : engine.continueWorkflow(scoped.scope, args, target?.scope),
  [GuidedToolName.PrepareStepValidation]: (engine, { scoped, args }) =>
    engine.prepareStepValidation(scoped.scope, args),
  [GuidedToolName.SubmitStepValidation]: (engine, { scoped, args }) => engine.submitStepValidation(scoped.scope, args),
};

export interface WorkflowEngineProfileOptions {
  readonly releases: ReleaseProvider;
  readonly signer: TokenSigner;
  readonly clock?: Clock;
  /** Checkpoint lifetime (RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE); default 30 days. */
  readonly checkpointMaxAgeMs?: number;
  /** The bootstrap paragraph; default: read from docs/operations/workflow-engine-bootstrap.md. */
  readonly bootstrap?: string;
  readonly maxArgumentBytes?: number;
  readonly onFault?: FaultReporter;
  /** Lifetime of the request state of an elicited question (default ten minutes; core/request-state.ts). */
  readonly requestStateTtlMs?: number;
}

function isGuidedToolName(name: string): name is GuidedToolName {
  return Object.prototype.hasOwnProperty.call(OPERATIONS, name);
}

/**
 * The four guided contracts as this profile checks them. `minLength`/`maxLength` count UTF-16 units: constant time
 * instead of a scan of every string (a 1 MiB artifact body included), and never below the code-point count, so every
 * length limit still holds (a string of astral characters reaches it sooner). Shared `$defs` are not inlined: inlined,
 * one contract's validator grows to ~280 KB of code, past what V8 optimises; a failure is re-reported by an inlining
 * validator so the issue keeps its full schema path. (Result text reuses the canonical text of the frozen step payloads
 * a release scope builds once: core's canonicalJson remembers frozen fragments.)
 */
export function compileWorkflowEngineContracts(): CompiledToolContract[] {
  return compileToolContracts(GUIDED_TOOL_CONTRACTS, {
    compiler: new SchemaCompiler({ unicodeLength: false, inlineRefs: false }),
    issueCompiler: new SchemaCompiler({ unicodeLength: false }),
  });
}

/**
 * Builds the profile once per process: checks every contract against the 2020-12 meta-schema (throws if one fails),
 * requires exactly the four tools, reads the bootstrap paragraph.
 */
export function createWorkflowEngineProfile(opts: WorkflowEngineProfileOptions): McpProfile {
  const contracts = compileWorkflowEngineContracts();
  const names = contracts.map((c) => c.name).sort();
  const expected = Object.values(GuidedToolName).sort();
  if (names.length !== expected.length || names.some((n, i) => n !== expected[i])) {
    throw new RimthanError(
      'invalid_tool_contract',
      'the workflow-engine profile must declare exactly the four guided tools',
    );
  }
  const clock = opts.clock ?? systemClock;
  const codec = new RequestStateCodec(opts.signer, clock, opts.requestStateTtlMs);
  const engine = createGuidedEngine({
    signer: opts.signer,
    clock,
    ...(opts.checkpointMaxAgeMs === undefined ? {} : { checkpointMaxAgeMs: opts.checkpointMaxAgeMs }),
  });
  const scopes = new ReleaseScopes<ReleaseScope>(opts.releases, createReleaseScope);
  const bootstrap = opts.bootstrap ?? loadBootstrapParagraph();

  async function scopesFor(name: GuidedToolName, args: JsonObject) {
    const active = await scopes.active();
    const pinned = name === GuidedToolName.StartWorkflow ? undefined : checkpointRelease(args);
    // A release the store cannot produce is left to the engine, which fails closed on the release mismatch.
    const scoped =
      pinned === undefined || pinned === active.release.release ? active : ((await scopes.named(pinned)) ?? active);
    const target =
      name === GuidedToolName.ContinueWorkflow && args['migration'] !== undefined
        ? await scopes.migrationTarget()
        : undefined;
    return { scoped, active, target };
  }

  async function route(name: GuidedToolName, args: JsonObject): Promise<ToolOutcome> {
    const value = OPERATIONS[name](engine, { ...(await scopesFor(name, args)), args });
    return { ok: true, value };
  }

  /** continue_workflow for a client that can show a form: its one-answer question is asked (guided/elicit). */
  async function elicitedRoute(args: JsonObject, round: ToolRound): Promise<ToolAnswer> {
    const { scoped, target } = await scopesFor(GuidedToolName.ContinueWorkflow, args);
    // State sent without an answer is still verified; it then counts as a cancelled form.
    const answer =
      round.requestState === undefined
        ? undefined
        : { requestState: round.requestState, action: 'cancel' as const, ...round.answer };
    const call = { tool: GuidedToolName.ContinueWorkflow, arguments: args, principalId: round.principalId };
    const outcome = elicitedContinue({ engine, codec, clock }, scoped.scope, call, answer, target?.scope);
    if (outcome.kind === 'ask') {
      const ask = { message: outcome.message, requestedSchema: outcome.form as unknown as JsonObject };
      return { ok: 'ask', ask: { ...ask, requestState: outcome.requestState } };
    }
    // An applied answer is handed back folded into the asked result: the model sees only `structuredContent`, and
    // continue's output has no place for the new confirmed state it would need to go on from the new checkpoint.
    return { ok: true, value: outcome.answered ?? outcome.result };
  }

  const tools: ToolEntry[] = contracts.map((contract) => {
    const name = contract.name;
    if (!isGuidedToolName(name)) throw new RimthanError('invalid_tool_contract', `unexpected tool ${name}`);
    const handler = (args: JsonObject): Promise<ToolOutcome> => route(name, args);
    return name === GuidedToolName.ContinueWorkflow
      ? { contract, handler, multiRound: elicitedRoute }
      : { contract, handler };
  });
  const catalogues = new CatalogueCache(PUBLISHED_SCHEMA_RESOURCES);
  const lookup = {
    activeRelease: async () => (await scopes.active()).release,
    namedRelease: async (release: string) => (await scopes.named(release))?.release,
  };
  const skills = releaseSkills(lookup);
  const faults = opts.onFault === undefined ? {} : { onFault: opts.onFault };
  return {
    name: ProfileName.WorkflowEngine,
    instructions: bootstrap,
    tools,
    resources: workflowResources(lookup, catalogues, skills, bootstrap),
    prompts: workflowPrompts(bootstrap),
    maxArgumentBytes: opts.maxArgumentBytes ?? WORKFLOW_ENGINE_MAX_REQUEST_BYTES,
    extensions: [createSkillsExtension({ skills, ...faults })],
    ...faults,
  };
}
