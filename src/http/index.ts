/**
 * The one HTTP edge every listener (MCP, Admin API, console) is built on: listen and hardening, request guards, one
 * bounded body reader with strict JSON, the answers with one status table, and a small route table. It knows nothing
 * of MCP, the Admin API or the console.
 */
export { createHardenedServer, hardenHttpServer, HTTP_TIMEOUT_DEFAULTS, listen, listenHttp } from './listen.js';
export type {
  BoundListener,
  ClientErrorShape,
  HardenedServerOptions,
  HttpTimeouts,
  Listening,
  ListenOptions,
  RequestListener,
} from './listen.js';
export { authorityOf, hostnameOf, originOf, RequestGuard } from './guards.js';
export type { Authority, RequestGuardOptions } from './guards.js';
export {
  announcesBody,
  continueOnDemand,
  declaredTooLarge,
  isClientDisconnect,
  isJsonContentType,
  LINGER_MS,
  lingerOnClose,
  readBody,
  readJsonBytes,
  readJsonObject,
} from './body.js';
export type { Body, BodyRefusal } from './body.js';
export {
  ERROR_STATUS,
  errorBody,
  jsonRpcErrorBody,
  redirect,
  sendBody,
  sendError,
  sendJson,
  sendJsonRpcError,
  statusFor,
} from './respond.js';
export type { HttpError, ResponseHeaders } from './respond.js';
export { matchRoute, pathPattern, SEGMENT, sendMiss } from './routes.js';
export type { MissWording, RouteLike, RouteMatch } from './routes.js';
export {
  ALWAYS_READY,
  answerHealth,
  HEALTH_PATHS,
  NotReadyReason,
  readinessAnswer,
  ReadyNote,
  ServiceHealth,
} from './health.js';
export type { Readiness, ReadinessProbe } from './health.js';
