/**
 * The one HTTP edge every listener (MCP, Admin API, console) is built on: listen and hardening, request guards, one
 * bounded body reader with strict JSON, the answers with one status table, and a small route table. It knows nothing
 * of MCP, the Admin API or the console.
 */
export * from './listen.js';
export * from './guards.js';
export * from './body.js';
export * from './respond.js';
export * from './routes.js';
