/**
 * The Admin API: an organisation's operators publish releases, move the `active` and `migration-target` channels
 * (compare-and-swap, kept as history, every action audited with the principal that did it), and watch health,
 * readiness and metrics. It runs on its own listener with its own credentials (a principal granted `rimthan:admin`);
 * a participant credential is refused with 403. JSON in and out, `Cache-Control: no-store`, capped bodies, errors in
 * the tool-error shape `{error: {code, message, ...}}`. It talks to the release store and the replica's follower only.
 */
export { startAdminServer, adminRequestListener } from './server.js';
export type { AdminServerOptions, AdminEndpoint } from './server.js';
export { ADMIN_LIMITS } from './requests.js';
export type { MetricsSource } from './routes.js';
export { adminAuthenticator, ADMIN_SCOPE } from './gate.js';
export type { AdminRequestTrace, AdminRequestTracer } from './trace.js';
