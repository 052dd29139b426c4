/** Operator actions on durable runs: the deploy check, upgrades to a newer flow version, restarts from a step. */
export { checkDeployment, type DeploymentCheck, type RemovedVersions } from './deploy-check.js';
export { upgradeRun, type UpgradeRequest } from './upgrade.js';
export { restartRun, type RestartRequest } from './restart.js';
export { sendEvent, type SendEventRequest, type SendEventResult } from './send-event.js';
