/** The console page: asks who it talks as, then shows the page the hash names. */
import { render } from 'preact';
import type { MeAnswer } from '../api-types.js';
import { adoptSignIn, ApiFailure, get, signOut } from './api.js';
import { Show } from './components/common.js';
import { DiffPage } from './pages/diff.js';
import { ReleasePage, ReleasesPage } from './pages/releases.js';
import { RunPage } from './pages/run.js';
import { RunsPage } from './pages/runs.js';
import { SessionPage } from './pages/session.js';
import { WorkflowPage } from './pages/workflow.js';
import { href, useRoute } from './route.js';
import { useApi } from './use-api.js';

function SignIn({ failure }: { failure: ApiFailure }) {
  const used = new URLSearchParams(window.location.search).get('link') === 'used';
  return (
    <section class="sign-in">
      <h2>Sign in</h2>
      {failure.reason === 'login' ? (
        <p>
          <a class="button" href="/login">
            Sign in with your token
          </a>
        </p>
      ) : (
        <p>
          {used ? 'This sign-in link was already used. ' : ''}Open the link that <code>rimthan console</code> printed on
          its terminal; it signs one browser in, once. Restart the console for a new link.
        </p>
      )}
    </section>
  );
}

function Page({ me }: { me: MeAnswer }) {
  const { parts, query } = useRoute();
  const [first, a, b, c, d, e, f] = parts;
  if (first === 'releases' && a !== undefined && b === 'workflows' && c !== undefined && d !== undefined) {
    return <WorkflowPage release={a} id={c} version={d} step={e === 'steps' ? f : undefined} />;
  }
  if (first === 'releases' && a !== undefined) return <ReleasePage release={a} />;
  if (first === 'diff') return <DiffPage from={query.get('from') ?? undefined} to={query.get('to') ?? undefined} />;
  if (first === 'runs' && a !== undefined) return <RunPage me={me} runId={a} query={query} />;
  if (first === 'runs') return <RunsPage me={me} query={query} />;
  if (first === 'session') return <SessionPage me={me} />;
  return <ReleasesPage />;
}

function App() {
  const [me] = useApi(() => get<MeAnswer>('/api/me'), []);
  const { parts } = useRoute();
  const section = parts[0] ?? 'releases';
  const nav: [string, string][] = [
    ['releases', 'Releases'],
    ['diff', 'Compare'],
    ['runs', 'Runs'],
    ['session', 'Guided session'],
  ];
  return (
    <>
      <header class="top">
        <h1>
          <a href="#/releases">Rimthan console</a>
        </h1>
        <nav>
          {nav.map(([id, label]) => (
            <a
              key={id}
              href={href([id])}
              class={section === id ? 'active' : ''}
              aria-current={section === id ? 'page' : undefined}
            >
              {label}
            </a>
          ))}
        </nav>
        {me.state === 'ready' && (
          <div class="who">
            {me.data.mode === 'operator' ? 'operator' : `session ${me.data.session ?? ''}`}
            <form
              method="post"
              action="/logout"
              onSubmit={(event) => {
                event.preventDefault();
                void signOut();
              }}
            >
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          </div>
        )}
      </header>
      <main>
        {me.state === 'failed' && me.error instanceof ApiFailure && me.error.code === 'unauthorized' ? (
          <SignIn failure={me.error} />
        ) : (
          <Show loaded={me}>{(data) => <Page me={data} />}</Show>
        )}
      </main>
    </>
  );
}

adoptSignIn();
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
