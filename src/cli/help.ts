/**
 * Help texts, one per topic (`rimthan <topic> --help`). The option rows are printed from the option tables the
 * commands parse (commands/*-options.ts), so an option cannot be accepted without being described or described
 * without being accepted; the prose around them is written here.
 */
import type { OptionTable } from './args.js';
import { ADMIN_ACTIVATE_OPTIONS } from './commands/admin-options.js';
import { CONSOLE_OPTIONS } from './commands/console-options.js';
import { GENERAL_OPTIONS, SERVER_OPTIONS } from './commands/participant-options.js';
import { ROLLOUT_CLAUDE_CODE_OPTIONS } from './commands/rollout-options.js';
import { RUNS_COMMON_OPTIONS, SESSION_ID_TOKEN_FILE } from './commands/runs-options.js';
import { SERVE_OPTIONS } from './commands/serve-options.js';

/**
 * The rows of a table that carry a description, as `  --name VALUE` with the description from `column` on: on the
 * same line when the option leaves room for it, else from the next line.
 */
function optionRows(table: OptionTable, column: number): string {
  const indent = ' '.repeat(column);
  const lines: string[] = [];
  for (const row of table) {
    if (row.help === undefined) continue;
    const option = `  --${row.name}${row.value === undefined ? '' : ` ${row.value}`}`;
    const [first = '', ...rest] = row.help;
    if (option.length < column) lines.push(option.padEnd(column) + first);
    else lines.push(option, indent + first);
    for (const line of rest) lines.push(indent + line);
  }
  return lines.join('\n');
}

const MAIN = `Usage: rimthan <command> [options]

Commands:
  serve                     run the MCP server (stdio or Streamable HTTP)
  console                   serve the web console: releases as graphs, runs live, guided sessions
  registry init DIR         scaffold a release source folder for one workflow (--workflow ID)
  registry check DIR        validate a release source folder (problems as file:line)
  registry build DIR        compile a release source into an immutable release file
  registry graph DIR|FILE   print a workflow as a Mermaid flowchart
  registry test DIR         walk a source's route scenarios and print coverage
  runs list|get|history|cancel
                            inspect and cancel durable runs (operators; JSON output)
  runs upgrade|restart|send-event|migrate-store
                            upgrade a run to a newer flow version, restart one from a vertex, send an event to
                            a run, move a SQLite store to PostgreSQL
  runs prune                delete finished runs older than an age or beyond each flow's newest N (retention)
  runs graph NAME@VERSION   print a registered flow as a Mermaid flowchart
  runs schedules            list the flow schedules of a run store with their next and last ticks
  runs session-id           print the runs session id of a bearer token (read from stdin or --token-file) or
                            of an OAuth principal (--issuer I --subject S)
  participant start|status|answer|continue|write-assets|prepare|report|submit|run
                            the reference harness: follow a guided workflow from a repository, one protocol
                            step per command or the whole scripted loop (.rimthan/workflow-session.json)
  admin publish|list|show|activate|rollback|migration-target
                            manage a service's releases through its Admin API (serve --admin-port)
  rollout claude-code|codex write the files that connect an organisation's coding agents to its endpoint: a
                            Claude Code plugin and managed settings, or Codex config.toml and requirements.toml

Options:
  -h, --help                show help (also after any command)
  --version                 print the version
  --debug                   (before the command) report unexpected errors with their stack and causes

Exit codes: 0 success, 1 failure, 2 usage error. Every message: docs/cli.md.`;

const SERVE = `Usage: rimthan serve [options]

Runs the MCP server. stdout carries only MCP protocol messages (stdio); notices and event lines go to stderr.

Options:
${optionRows(SERVE_OPTIONS, 22)}

Environment:
  RIMTHAN_WORKFLOW_SIGNING_SECRET         active checkpoint signing secret (>= 32 bytes); unset: a generated key is
                                          kept in $XDG_STATE_HOME/rimthan/signing-key.json (~/.local/state/rimthan)
  RIMTHAN_WORKFLOW_SIGNING_KEY_ID         active key id (default "default")
  RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON retired key id -> secret (at most 16), still verified
  RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE     checkpoint lifetime, e.g. 30d (default), 12h, 90m: an older checkpoint fails
                                          as workflow_checkpoint_error with reason checkpoint_expired
  RIMTHAN_MCP_MAX_REQUEST_BYTES           HTTP request body cap (default 4194304 workflow-engine, 1048576 runs)
  RIMTHAN_MCP_BEARER_TOKEN                bearer token (instead of --token-file)
  RIMTHAN_OAUTH_ISSUER, RIMTHAN_OAUTH_AUDIENCE, RIMTHAN_OAUTH_JWKS, RIMTHAN_OAUTH_RESOURCE
                                          the --oauth-* settings (an option wins over its variable)
  RIMTHAN_ADMIN_BEARER_TOKEN              admin token (instead of --admin-token-file)
  RIMTHAN_LOG_FORMAT                      text or json (instead of --log-format)

Beyond loopback (--host other than 127.0.0.1/localhost/::1) serve refuses to start without participant
authentication, and without RIMTHAN_WORKFLOW_SIGNING_SECRET from the environment.`;

const ADMIN = `Usage:
  rimthan admin publish FILE --url URL             verify and store a built release file (immutable; the same
                                                   bytes again is a no-op)
  rimthan admin list --url URL                     every release, with the channels naming it
  rimthan admin show RELEASE --url URL             one release: digests, workflows, published at/by
  rimthan admin activate RELEASE --url URL         make RELEASE the active release (new starts use it)
  rimthan admin rollback --url URL                 the active release before the latest change
  rimthan admin migration-target RELEASE|--clear --url URL
                                                   the release a checkpoint may migrate to (none: refused)

${optionRows(ADMIN_ACTIVATE_OPTIONS, 14)}

The token comes from RIMTHAN_ADMIN_BEARER_TOKEN. The documented release path:
  rimthan registry build SOURCE --out FILE && rimthan admin publish FILE --url URL && rimthan admin activate RELEASE --url URL`;

const CONSOLE = `Usage: rimthan console [options]

Serves the web console: releases drawn as graphs (steps, gates, branches, host adapters, diffs), a session's durable
runs (live timeline, resume form, cancel) and guided session files checked at a glance. It works through the same
tools as \`serve\`, and executes the runs it starts (a worker of the run store). Prints "console listening on URL"
on stderr; on loopback without tokens the URL carries a one-time sign-in token.

Options:
${optionRows(CONSOLE_OPTIONS, 26)}

Environment:
  RIMTHAN_WORKFLOW_SIGNING_SECRET (and the other signing variables of \`rimthan serve --help\`): the key ring that
  verifies session files; it must be the serving process's
  RIMTHAN_ADMIN_BEARER_TOKEN          an admin bearer token (instead of --admin-token-file)
  RIMTHAN_MCP_MAX_REQUEST_BYTES       request body cap (default 1048576)`;

const REGISTRY = `Usage:
  rimthan registry init DIR --workflow ID     write a new source folder for one workflow that passes check, build
                                              and test as written: one gated step, one validator and its brief,
                                              schemas, a route scenario with fixtures, and the shared host adapters
                                              and validator subagent of the packaged library; comments say what to
                                              edit. DIR must be missing or empty (docs/authoring/first-workflow.md)
  rimthan registry check DIR                  validate a release source; prints file:line: code: message per problem
  rimthan registry build DIR --out FILE       compile DIR into a release file (refuses to change an existing file)
  rimthan registry graph DIR|FILE [--workflow ID[@VERSION]]
                                              print Mermaid flowcharts of the workflows
  rimthan registry test DIR [--workflow ID] [--min-coverage N] [--json]
                                              walk the route scenarios of DIR/scenarios/ through the engine and
                                              print each workflow's coverage (docs/authoring/scenarios.md); a
                                              failure is printed as file:line: message. --min-coverage N (0-100,
                                              default 0: report only) also fails a workflow covered below N%

Exit codes: 0 success, 1 problems found or failure (test: a failed scenario or coverage below the minimum),
2 usage error.`;

const RUNS = `Usage:
  rimthan runs list [--after CURSOR] [--limit N]
  rimthan runs get RUN_ID
  rimthan runs history RUN_ID [--after-revision N] [--after-event-id ID] [--limit N]
  rimthan runs cancel RUN_ID [--reason TEXT]
  rimthan runs session-id [--token-file FILE]     (or the token on stdin)
  rimthan runs session-id --issuer URL --subject SUB
  rimthan runs graph NAME@VERSION [--flows MODULE]

Options (list, get, history, cancel):
${optionRows(RUNS_COMMON_OPTIONS, 19)}

Output is JSON on stdout. A refused call (not_found, conflict, ...) prints {"error": {...}} on stderr and exits 1.

Operator actions (no run tool offers them; the runs are picked up by the workers serving the store; upgrade and
restart take --store, --session and --flows as above):
  rimthan runs upgrade RUN_ID --to VERSION [--continue]
                   re-pin an interrupted run to a newer version of its flow that declares it can take it over
                   (FlowSpec.upgrades); the state is checked against that version's stateSchema. It keeps waiting
                   for workflow_run_resume, or with --continue goes on at once
  rimthan runs restart RUN_ID --from VERTEX
                   re-run a failed or interrupted run from a vertex it completed (the state that vertex started
                   from, as a new revision; history keeps everything before)
  rimthan runs send-event RUN_ID NAME --event-id ID [--payload JSON]
                   deliver an event to a run (--store and --session as above): a run parked in
                   ctx.waitForEvent(NAME) wakes; one sent earlier is kept until the run waits for it. An event id
                   is delivered once ("delivered": false for a repeat); a finished run takes none (conflict)
  rimthan runs migrate-store --from sqlite:PATH --to postgres://... [--schema NAME]
                   move every run, checkpoint, history entry, input, idempotency key and session into PostgreSQL
                   (schema default public), verified before it commits; stop the servers using PATH first. Unfinished
                   runs continue on PostgreSQL; on the old file they stay held so nothing runs twice
  rimthan runs prune [--flow NAME] [--older-than DURATION] [--keep-last N] [--dry-run] [--json]
                   delete finished runs (completed, cancelled, failed; --store as above) of one flow or of every
                   flow: those finished more than DURATION ago (30d, 12h, 90m), and/or all but each flow's N most
                   recently finished; with both, a run goes only when both let it. Their history, checkpoints,
                   events, idempotency keys and the inputs no remaining run refers to go with them, 500 runs per
                   transaction (progress on stderr). Never a run still going, nor one whose parent or child is.
                   --dry-run counts what would go; --json prints the report as JSON
  rimthan runs schedules [--store SPEC] [--json]
                   list every flow schedule (FlowSpec.schedules): flow, cron, zone, overlap and catch-up policies,
                   next tick, last tick and run, and the ticks started, skipped, missed and failed. A table, or
                   the records with --json. Scheduled runs belong to the session schedule:FLOW_NAME

session-id prints, one line per token, the session an HTTP caller with that bearer token gets (the principal id
bearer-<32 hex digits>). It reads tokens one per line from stdin or --token-file FILE, never from the command line:
  printf '%s\\n' "$TOKEN" | rimthan runs session-id
${optionRows(SESSION_ID_TOKEN_FILE, 21)}
An OAuth caller's session is oauth-<32 hex digits>, from the token's issuer and subject (sub claim):
  rimthan runs session-id --issuer https://idp.example.org/realm --subject 248289761001

graph prints a registered flow of the catalog (--flows as above) as a Mermaid flowchart: solid arrows are static
edges (several from one vertex run as parallel branches; a join waits at their barrier), a dashed arrow to a
"decision" is a conditional edge (its targets are chosen at run time), a thick red "on error" arrow an error route;
forEach vertices show their item bound, and retry policies and timeouts are lines of the vertex label. An unknown
NAME@VERSION fails with not_found and the list of known flows.`;

const PARTICIPANT = `Usage:
  rimthan participant start --workflow ID --harness NAME [--capability C]... [--validator-capability C]...
                            [--adapter ID@VERSION] [--workflow-version V] [--set FIELD=VALUE]... [--yes]
  rimthan participant status                  where the workflow stands and what is needed next (no tool call)
  rimthan participant answer FIELD VALUE [--yes]
                                              confirm one confirmed-state field and continue with it
  rimthan participant continue                continue_workflow with the session as it is
  rimthan participant write-assets [--no-project-local] [--context-out FILE]
                                              deliver the step's host assets (setup: and the workspace manifest)
  rimthan participant prepare [--orders DIR]  prepare_step_validation from the files on disk; work orders per validator
  rimthan participant report VALIDATOR FILE   register a validator's JSON report for the prepared validation
  rimthan participant submit [--reports DIR]  submit the complete report set (registered files, DIR/<validator>.json)
  rimthan participant run [start options] [--answers FILE] (--validator-command CMD | --reports DIR) [--yes]
                                              the whole loop until the workflow completes or needs a person

Server (one of):
${optionRows(SERVER_OPTIONS, 25)}

Options:
${optionRows(GENERAL_OPTIONS, 25)}

Exit codes: 0 done, 1 stopped (blocked, deterministic failures, failed validators, an answer or file needed) or
failure, 2 usage error. Guide: docs/harness/participant.md.`;

const ROLLOUT = `Usage:
  rimthan rollout claude-code --url URL --out DIR [options]
                   a Claude Code plugin marketplace in DIR: .claude-plugin/marketplace.json, the plugin in
                   plugins/rimthan/ (.claude-plugin/plugin.json, .mcp.json naming the remote server, README.md, and
                   the active packaged release's host assets for claude-code: agents/, skills/, commands/), and
                   managed-settings.d/rimthan.json (extraKnownMarketplaces, enabledPlugins, allowedMcpServers)
  rimthan rollout codex --url URL --out DIR [options]
                   config.toml ([mcp_servers.rimthan]) and requirements.toml (the managed MCP allowlist entry)

Options:
${optionRows(ROLLOUT_CLAUDE_CODE_OPTIONS, 19)}

Prints each file it wrote. Guide: docs/harness/rollout.md.`;

const TOPICS: Readonly<Record<string, string>> = {
  '': MAIN,
  serve: SERVE,
  console: CONSOLE,
  registry: REGISTRY,
  'registry init': REGISTRY,
  'registry check': REGISTRY,
  'registry build': REGISTRY,
  'registry graph': REGISTRY,
  'registry test': REGISTRY,
  runs: RUNS,
  'runs list': RUNS,
  'runs get': RUNS,
  'runs history': RUNS,
  'runs cancel': RUNS,
  'runs upgrade': RUNS,
  'runs restart': RUNS,
  'runs send-event': RUNS,
  'runs migrate-store': RUNS,
  'runs session-id': RUNS,
  'runs prune': RUNS,
  'runs graph': RUNS,
  'runs schedules': RUNS,
  participant: PARTICIPANT,
  'participant start': PARTICIPANT,
  'participant status': PARTICIPANT,
  'participant answer': PARTICIPANT,
  'participant continue': PARTICIPANT,
  'participant write-assets': PARTICIPANT,
  'participant prepare': PARTICIPANT,
  'participant report': PARTICIPANT,
  'participant submit': PARTICIPANT,
  'participant run': PARTICIPANT,
  admin: ADMIN,
  'admin publish': ADMIN,
  'admin list': ADMIN,
  'admin show': ADMIN,
  'admin activate': ADMIN,
  'admin rollback': ADMIN,
  'admin migration-target': ADMIN,
  rollout: ROLLOUT,
  'rollout claude-code': ROLLOUT,
  'rollout codex': ROLLOUT,
};

/** The help text of a topic (the main help for an unknown one). */
export function helpText(topic: string): string {
  return TOPICS[topic] ?? MAIN;
}
