/** Help texts, one per topic (`rimthan <topic> --help`). */

const MAIN = `Usage: rimthan <command> [options]

Commands:
  serve                     run the MCP server (stdio or Streamable HTTP)
  console                   serve the web console: releases as graphs, runs live, guided sessions
  registry check DIR        validate a release source folder (problems as file:line)
  registry build DIR        compile a release source into an immutable release file
  registry graph DIR|FILE   print a workflow as a Mermaid flowchart
  runs list|get|history|cancel
                            inspect and cancel durable runs (operators; JSON output)
  runs upgrade|restart|migrate-store
                            upgrade a run to a newer flow version, restart one from a vertex, move a SQLite
                            store to PostgreSQL
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
  --profile P         workflow-engine (default): the four guided tools, release resources, bootstrap prompt,
                      and each release's skills (MCP Skills extension)
                      runs: the seven durable-run tools; runs as tasks for clients declaring the MCP Tasks
                      extension. On MCP 2026-07-28, a client declaring form elicitation gets questions and
                      approvals as forms for its person; every other client gets the plain tools.
  --transport T       stdio (default) | http (stateless Streamable HTTP, POST /mcp)
  --host H            HTTP listen address (default 127.0.0.1)
  --port N            HTTP port (default 8765; 0 picks a free port)
  --allowed-host H    extra Host name accepted over HTTP (repeatable; default localhost, 127.0.0.1, [::1])
  --allowed-origin O  extra Origin accepted over HTTP (repeatable)
  --token-file PATH   require "Authorization: Bearer <token>"; PATH holds one token per line, each
                      its own caller (runs: its own session); or set RIMTHAN_MCP_BEARER_TOKEN
  --oauth-issuer URL  accept OAuth 2.1 JWT access tokens from this issuer (exact iss); needs the two below;
                      with --token-file as well, either kind of credential is accepted
  --oauth-audience A  the audience (aud) tokens must carry: normally this endpoint's public URL
  --oauth-jwks F|URL  the issuer's public keys: a JWKS file or an https:// URL (cached; refetched for an unknown
                      kid at most every 30 s); loaded at start, so a wrong one stops the start
  --oauth-resource URL
                      the endpoint's public URL for RFC 9728 metadata (default: the audience), served at
                      /.well-known/oauth-protected-resource and named in every 401's WWW-Authenticate
  --releases STORE    workflow-engine: a folder release store, or postgres://...[?schema=NAME] (the store
                      replicas share; schema default rimthan_releases) (default: the packaged releases)
  --admin-port N      start the Admin API on its own listener, with the Prometheus metrics at /admin/metrics
                      (0 picks a free port; http only; workflow-engine: needs --releases; runs: healthz,
                      readyz and metrics only)
  --admin-host H      Admin API listen address (default 127.0.0.1)
  --admin-token-file PATH
                      admin tokens, one per line (or RIMTHAN_ADMIN_BEARER_TOKEN); required with --admin-port
  --store SPEC        runs: sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db; a missing
                      SQLite file is created, and a .rimthan/ folder gets a .gitignore keeping it out of Git)
  --flows MODULE      runs: a module exporting \`flows\` (an array of defineFlow results) or a default FlowCatalog
                      (default: the example catalog)
  --session ID        runs over stdio: the session id (default: one generated once and kept beside the store,
                      in <store file>.stdio-session, so a restarted agent sees its runs)
  --concurrency N     runs: runs this worker executes at once (default 16); further starts wait as pending
  --lease-ms MS       runs: lease length (default 30000); a dead worker's runs are taken over 1-1.5x this after it died
  --fail-removed-versions
                      runs: fail the unfinished runs of flow versions --flows no longer has (default: refuse to
                      start and name them)
  --log-format F      text (default): "rimthan: ..." lines for a person; json: one JSON object per event line
                      (start, release_change, release_refresh_failed, release_refresh_recovered, fault, stop) for
                      a log collector; the "listening on URL" notices stay plain text in both

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
authentication, and (workflow-engine) without RIMTHAN_WORKFLOW_SIGNING_SECRET from the environment.`;

const ADMIN = `Usage:
  rimthan admin publish FILE --url URL             verify and store a built release file (immutable; the same
                                                   bytes again is a no-op)
  rimthan admin list --url URL                     every release, with the channels naming it
  rimthan admin show RELEASE --url URL             one release: digests, workflows, published at/by
  rimthan admin activate RELEASE --url URL         make RELEASE the active release (new starts use it)
  rimthan admin rollback --url URL                 the active release before the latest change
  rimthan admin migration-target RELEASE|--clear --url URL
                                                   the release a checkpoint may migrate to (none: refused)

  --url URL   the Admin API (serve --admin-port), e.g. http://127.0.0.1:8766/admin
  --json      print the API's JSON instead of text
  --expected-current RELEASE
              activate, migration-target: change only if the channel still names RELEASE (default: the value
              read just before; a concurrent change is refused with 409, never overwritten)

The token comes from RIMTHAN_ADMIN_BEARER_TOKEN. The documented release path:
  rimthan registry build SOURCE --out FILE && rimthan admin publish FILE --url URL && rimthan admin activate RELEASE --url URL`;

const CONSOLE = `Usage: rimthan console [options]

Serves the web console: releases drawn as graphs (steps, gates, branches, host adapters, diffs), a session's durable
runs (live timeline, resume form, cancel) and guided session files checked at a glance. It works through the same
tools as \`serve\`, and executes the runs it starts (a worker of the run store). Prints "console listening on URL"
on stderr; on loopback without tokens the URL carries a one-time sign-in token.

Options:
  --host H                listen address (default 127.0.0.1); beyond loopback --admin-token-file is required
  --port N                port (default 8770; 0 picks a free port)
  --releases DIR          a folder release store (default: the packaged releases)
  --store SPEC            run store: sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db)
  --flows MODULE          the flow catalog (default: the example catalog)
  --session ID            without tokens: the session shown first (any session of the store can be chosen)
  --workspace DIR         a repository whose .rimthan/workflow-session.json the console may read (repeatable)
  --admin-token-file PATH the admin bearer tokens, one per line, each its own caller who sees only its own
                          session; or set RIMTHAN_ADMIN_BEARER_TOKEN
  --allowed-host H        extra Host name accepted (repeatable; default localhost, 127.0.0.1, [::1], the --host)
  --allowed-origin O      extra Origin accepted (repeatable)

Environment:
  RIMTHAN_WORKFLOW_SIGNING_SECRET (and the other signing variables of \`rimthan serve --help\`): the key ring that
  verifies session files; it must be the serving process's
  RIMTHAN_ADMIN_BEARER_TOKEN          an admin bearer token (instead of --admin-token-file)
  RIMTHAN_MCP_MAX_REQUEST_BYTES       request body cap (default 1048576)`;

const REGISTRY = `Usage:
  rimthan registry check DIR                  validate a release source; prints file:line: code: message per problem
  rimthan registry build DIR --out FILE       compile DIR into a release file (refuses to change an existing file)
  rimthan registry graph DIR|FILE [--workflow ID[@VERSION]]
                                              print Mermaid flowcharts of the workflows

Exit codes: 0 success, 1 problems found or failure, 2 usage error.`;

const RUNS = `Usage:
  rimthan runs list [--after CURSOR] [--limit N]
  rimthan runs get RUN_ID
  rimthan runs history RUN_ID [--after-revision N] [--after-event-id ID] [--limit N]
  rimthan runs cancel RUN_ID [--reason TEXT]
  rimthan runs session-id [--token-file FILE]     (or the token on stdin)
  rimthan runs session-id --issuer URL --subject SUB

Options (list, get, history, cancel):
  --store SPEC     sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db); must exist, never created
  --session ID     the session whose runs to act on (runs are session-scoped); default: the stdio session kept
                   beside the store by \`rimthan serve --profile runs\`
  --flows MODULE   the flow catalog the runs were started from (default: the example catalog)

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
  rimthan runs migrate-store --from sqlite:PATH --to postgres://... [--schema NAME]
                   move every run, checkpoint, history entry, input, idempotency key and session into PostgreSQL
                   (schema default public), verified before it commits; stop the servers using PATH first. Unfinished
                   runs continue on PostgreSQL; on the old file they stay held so nothing runs twice

session-id prints, one line per token, the session an HTTP caller with that bearer token gets (the principal id
bearer-<32 hex digits>). It reads tokens one per line from stdin or --token-file FILE, never from the command line:
  printf '%s\\n' "$TOKEN" | rimthan runs session-id
  --token-file FILE  read the tokens from FILE (the format of serve --token-file)
An OAuth caller's session is oauth-<32 hex digits>, from the token's issuer and subject (sub claim):
  rimthan runs session-id --issuer https://idp.example.org/realm --subject 248289761001`;

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
  --server-command CMD   launch CMD and talk MCP over its stdio (words split on spaces; quotes group; no shell)
  --url URL              Streamable HTTP endpoint; the bearer token comes from --token-file FILE or
                         RIMTHAN_MCP_BEARER_TOKEN, never from the command line

Options:
  --workspace DIR        the repository (default: the working directory); the session is DIR/.rimthan/workflow-session.json
  --json                 print the tool answer (status, run summary) as JSON
  --protected-path P     a path repository policy protects (repeatable); sent as repository_policy
  --yes                  the values were confirmed by the person who wrote the script (no prompt)
  --answers FILE         run: a JSON object field -> value, each applied when the workflow reaches it
  --validator-command CMD
                         run: per validator, CMD gets its work order (JSON) on stdin and prints its report
                         ({"outcome": "passed"|"failed", "findings": [...]}) on stdout; RIMTHAN_VALIDATOR_ID is set

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
  --url URL        the MCP endpoint participants connect to: https:// (http:// only on a loopback host), no
                   credentials, query or fragment
  --out DIR        the folder to write; it must be new or empty unless --force
  --force          write into a folder that is not empty, overwriting the files rollout writes (nothing else)
  --token-env NAME the environment variable each person keeps their bearer token in (default RIMTHAN_TOKEN);
                   the files name the variable, never a token
  --oauth          participants sign in with OAuth through the host instead (rimthan serve --oauth-issuer ...)
  --oauth-client-id ID
                   with --oauth: a client id registered with the identity provider (default: the host registers
                   itself dynamically)
  --oauth-callback-port N
                   claude-code, with --oauth: the fixed local port of the OAuth callback (for a pre-registered
                   redirect URI)
  --marketplace-source SOURCE
                   claude-code: where participants' Claude Code reads the marketplace from, as the managed settings
                   declare it: an absolute folder path (default: DIR), OWNER/REPO (GitHub) or a Git URL

Prints each file it wrote. Guide: docs/harness/rollout.md.`;

const TOPICS: Readonly<Record<string, string>> = {
  '': MAIN,
  serve: SERVE,
  console: CONSOLE,
  registry: REGISTRY,
  'registry check': REGISTRY,
  'registry build': REGISTRY,
  'registry graph': REGISTRY,
  runs: RUNS,
  'runs list': RUNS,
  'runs get': RUNS,
  'runs history': RUNS,
  'runs cancel': RUNS,
  'runs upgrade': RUNS,
  'runs restart': RUNS,
  'runs migrate-store': RUNS,
  'runs session-id': RUNS,
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
