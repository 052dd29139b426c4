/** The service metrics of a replica following a release follower, as `rimthan serve` serves them at /admin/metrics. */
import { ServiceMetrics } from '../../src/observability/index.js';
import type { ReleaseFollower } from '../../src/registry/index.js';

export function releaseMetrics(follower: ReleaseFollower): ServiceMetrics {
  const metrics = new ServiceMetrics({ processMetrics: false });
  metrics.followReleases(() => follower.state());
  return metrics;
}
