import { FlowCatalog } from '../flow/catalog.js';
import { counterFlow } from './counter-flow.js';
import { releaseApprovalFlow } from './release-approval.js';

export { counterFlow, type CounterInput, type CounterState } from './counter-flow.js';
export { releaseApprovalFlow, draftNotes, type ReleaseInput, type ReleaseState } from './release-approval.js';

/** A fresh catalog holding the example flows `counter_flow` v1 and `release_approval` v1. */
export function exampleCatalog(): FlowCatalog {
  const catalog = new FlowCatalog();
  catalog.register(counterFlow);
  catalog.register(releaseApprovalFlow);
  return catalog;
}
