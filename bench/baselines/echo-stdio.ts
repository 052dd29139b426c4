/**
 * The startup suite's baseline: a bare `@modelcontextprotocol/sdk` stdio server with one echo tool, the smallest MCP
 * server a host could start in Rimthan's place (the SDK's `McpServer`, a zod input shape, its own stdio transport).
 * Run as a script: `node dist/bench/baselines/echo-stdio.js`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
