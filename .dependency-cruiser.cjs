// Import rules between the rooms of src/ (docs/architecture.md draws them; CONTRIBUTING.md says why).
// Checked by `npm run lint` (depcruise src) and by test/system/lint/layers.e2e.test.ts, which also proves each rule
// bites.
/** Node modules that reach outside the process: files, network, processes, threads. */
const IO_MODULES =
  '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads|readline)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle, type-only imports included: a cycle means two files are one responsibility.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'pure-core-and-guided',
      comment: 'core and guided are pure: no files, network or processes (their callers do the I/O).',
      severity: 'error',
      from: { path: '^src/(core|guided)/' },
      to: { dependencyTypes: ['core'], path: IO_MODULES },
    },
    {
      name: 'runs-below-tools-and-mcp',
      comment: 'The run engine knows nothing of the tools that expose it, nor of MCP.',
      severity: 'error',
      from: { path: '^src/runs/' },
      to: { path: '^src/(tools|mcp|cli|admin|console|participant)/' },
    },
    {
      name: 'only-mcp-knows-mcp',
      comment:
        'Nothing below mcp/ knows MCP exists: only mcp/ (the server), participant/ (the client a harness embeds) and ' +
        'cli/ import the MCP SDKs.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(mcp|participant|cli)/' },
      to: { path: '@modelcontextprotocol/' },
    },
    {
      name: 'only-cli-wires-admin-and-console',
      comment: 'The Admin API and the console are wired by the CLI only; no other room depends on them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|admin|console)/' },
      to: { path: '^src/(admin|console)/' },
    },
    {
      name: 'admin-and-console-apart',
      comment: 'The Admin API and the console share mechanisms through http/ and registry/, never each other.',
      severity: 'error',
      from: { path: '^src/(admin|console)/' },
      to: { path: '^src/(admin|console)/', pathNot: '^src/$1/' },
    },
    {
      name: 'rooms-through-their-index',
      comment:
        "Another room is entered through its index.ts (or a sub-room's index.ts), never a private file. Two exceptions: " +
        'core/ is a flat library of independent pure modules, entered per module; cli/ is the composition root and ' +
        'loads only the files the chosen command needs, so `rimthan serve` answers its first message fast.',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/cli/' },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/$1/', '^src/core/', '^src/[^/]+/index[.]ts$', '^src/[^/]+/[^/]+/index[.]ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
