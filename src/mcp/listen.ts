/**
 * Binding an HTTP listener, shared by every listener Rimthan opens (MCP, Admin API, console): resolves once the port
 * is bound (a bind error rejects, naming nothing but the error), and names the bound origin as a client reaches it.
 */
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BoundListener {
  /** `http://host:port` of the bound address (IPv6 in brackets). */
  readonly origin: string;
  /** Stops accepting, drops idle and open connections, and resolves once the server is closed. */
  close(): Promise<void>;
}

export async function listenHttp(server: HttpServer, port: number, host: string): Promise<BoundListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
