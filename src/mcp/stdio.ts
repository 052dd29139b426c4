/**
 * stdio transport: one server for the life of the process. stdout carries only protocol messages; anything the host
 * process wants to say goes to stderr.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Connects `server` to stdin/stdout and resolves when the client closes the connection (stdin ends) or `stop`
 * resolves (a signal); either way the server is closed and stdin released, so the process can exit.
 */
export async function serveStdio(server: Server, stop?: Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  const ended = (): void => {
    void server.close();
  };
  process.stdin.once('end', ended);
  void stop?.then(ended);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    process.stdin.off('end', ended);
  }
}
