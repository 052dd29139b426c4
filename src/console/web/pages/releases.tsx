/** The releases of the store: which is active and which is the migration target, and their workflows. */
import type { ReleaseAnswer, ReleasesAnswer } from '../../api-types.js';
import { apiPath, get } from '../api.js';
import { Badge, Digest, Show, Time } from '../components/common.js';
import { href } from '../route.js';
import { useApi } from '../use-api.js';

function Channels({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((n) => (
        <Badge key={n} kind={n}>
          {n}
        </Badge>
      ))}
    </>
  );
}

export function ReleasesPage() {
  const [loaded] = useApi(() => get<ReleasesAnswer>('/api/releases'), []);
  return (
    <section>
      <h2>Releases</h2>
      <Show loaded={loaded}>
        {(data) => (
          <>
            <p class="lead">
              Store: <strong>{data.store}</strong> · active: <strong>{data.active ?? 'none'}</strong> · migration
              target: <strong>{data.migration_target ?? 'none'}</strong>
            </p>
            {data.migration_note !== undefined && <p class="note">{data.migration_note}</p>}
            <table class="table releases">
              <thead>
                <tr>
                  <th>Release</th>
                  <th>Channels</th>
                  <th>Workflows</th>
                  <th>Manifest</th>
                </tr>
              </thead>
              <tbody>
                {data.releases.map((r) => (
                  <tr key={r.release} data-release={r.release}>
                    <td>
                      <a href={href(['releases', r.release])}>{r.release}</a>
                      {r.status !== 'verified' && <Badge kind="failed">{r.status}</Badge>}
                    </td>
                    <td>
                      <Channels names={r.channels} />
                    </td>
                    <td>
                      {r.workflows.map((w) => (
                        <div key={`${w.id}@${w.version}`}>
                          <a href={href(['releases', r.release, 'workflows', w.id, w.version])}>
                            {w.title}{' '}
                            <span class="muted">
                              {w.id}@{w.version}
                            </span>
                          </a>
                        </div>
                      ))}
                    </td>
                    <td>{r.manifest_sha256 !== undefined && <Digest value={r.manifest_sha256} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {data.releases.length >= 2 && (
              <p>
                <a
                  class="button"
                  href={href(['diff'], {
                    from: data.releases[data.releases.length - 2]?.release,
                    to: data.releases[data.releases.length - 1]?.release,
                  })}
                >
                  Compare the two newest releases
                </a>
              </p>
            )}
            {data.history.length > 0 && (
              <>
                <h3>Channel history</h3>
                <ul class="history">
                  {data.history.map((h, i) => (
                    <li key={i}>
                      <Time iso={h.at} /> {h.channel}: {h.previous ?? 'none'} → {h.release ?? 'none'}
                      {h.by !== undefined && <span class="muted"> by {h.by}</span>}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </Show>
    </section>
  );
}

export function ReleasePage({ release }: { release: string }) {
  const [loaded] = useApi(() => get<ReleaseAnswer>(apiPath('releases', release)), [release]);
  return (
    <section>
      <p class="crumbs">
        <a href={href(['releases'])}>Releases</a> / {release}
      </p>
      <Show loaded={loaded}>
        {(data) => (
          <>
            <h2>
              {data.release} <Channels names={data.channels} />
            </h2>
            <p class="lead">
              Registry <strong>{data.registry_id}</strong> · manifest <Digest value={data.manifest_sha256} />
            </p>
            <h3>Workflows</h3>
            <ul class="cards">
              {data.workflows.map((w) => (
                <li key={`${w.id}@${w.version}`} class="card">
                  <a href={href(['releases', data.release, 'workflows', w.id, w.version])}>
                    <strong>{w.title}</strong>{' '}
                    <span class="muted">
                      {w.id}@{w.version}
                    </span>
                  </a>
                  <p>{w.description}</p>
                  <p class="muted">{w.steps} steps</p>
                </li>
              ))}
            </ul>
            <h3>Manifest entries</h3>
            <table class="table">
              <thead>
                <tr>
                  <th>Type</th>
                  <th>Key</th>
                  <th>Version</th>
                  <th>SHA-256</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={`${e.type}/${e.key}@${e.version}`}>
                    <td>{e.type}</td>
                    <td>{e.key}</td>
                    <td>{e.version}</td>
                    <td>
                      <Digest value={e.sha256} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}
