/**
 * Observability without participant data: Prometheus metrics (`ServiceMetrics`, served by the Admin API at
 * `/admin/metrics`) and structured JSON log lines (`jsonLogger`). Both take closed words only: tool names, statuses,
 * error codes, HTTP statuses, release and channel names; never a principal, a run id, a token, a body or a value a
 * participant sent. The transports and stores report to them through narrow hooks (a tool-call observer, an HTTP
 * status observer, the run store's `StoreObserver`).
 */
export {
  ServiceMetrics,
  type ClientAbortReason,
  type ReleaseStateSource,
  type ServiceMetricsOptions,
  type ToolCallStatus,
} from './metrics.js';
export { errorKindOf, jsonLogger, type LogEvent, type LogFields, type StructuredLogger } from './log.js';
