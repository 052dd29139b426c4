/**
 * stdio transport: one server for the life of the process. stdout carries only protocol messages; anything the host
 * process wants to say goes to stderr.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** Connects `server` to stdin/stdout; resolves when the client closes the connection (stdin ends). */
export async function serveStdio(server: Server): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  process.stdin.once('end', () => {
    void server.close();
  });
  await server.connect(transport);
  await closed;
}
