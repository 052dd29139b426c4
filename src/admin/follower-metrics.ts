/**
 * A deliberately small metrics source until the service metrics (prom-client, src/observability/) are wired: the
 * release follower's state in the Prometheus text format. Labels carry release names only (release content, never
 * participant data).
 */
import type { ReleaseFollower } from '../registry/index.js';
import type { MetricsSource } from './server.js';

const label = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function followerMetricsSource(follower: ReleaseFollower): MetricsSource {
  return {
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
    render(): Promise<string> {
      const s = follower.state();
      const lines = [
        '# HELP rimthan_release_active_info The verified active release being served.',
        '# TYPE rimthan_release_active_info gauge',
        ...(s.active === null ? [] : [`rimthan_release_active_info{release="${label(s.active.release)}"} 1`]),
        '# HELP rimthan_release_migration_target_info The verified migration target (absent when none is set).',
        '# TYPE rimthan_release_migration_target_info gauge',
        ...(s.migration_target === null
          ? []
          : [`rimthan_release_migration_target_info{release="${label(s.migration_target.release)}"} 1`]),
        '# HELP rimthan_release_degraded 1 while the last refresh was refused and the last verified snapshot is served.',
        '# TYPE rimthan_release_degraded gauge',
        `rimthan_release_degraded ${s.degraded === null ? 0 : 1}`,
        '# HELP rimthan_release_refreshes_total Channel refreshes done.',
        '# TYPE rimthan_release_refreshes_total counter',
        `rimthan_release_refreshes_total ${s.refreshes}`,
        '# HELP rimthan_release_refresh_failures_total Channel refreshes refused (corrupt, unverifiable, unreachable).',
        '# TYPE rimthan_release_refresh_failures_total counter',
        `rimthan_release_refresh_failures_total ${s.refresh_failures}`,
      ];
      return Promise.resolve(`${lines.join('\n')}\n`);
    },
  };
}
