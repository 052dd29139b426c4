/**
 * The console as a person uses it, in a real headless Chromium (Debian's, driven by playwright-core): the packaged
 * release's graph, a step, the diff of the two packaged releases; a run of the example approval flow started from its
 * generated form, its timeline advancing live, resumed through the resume form; another cancelled with a reason; a
 * guided session file from a workflow in progress with its current step. Each test saves a screenshot. Throughout,
 * the participant marker (in run inputs, the objective, artifact bodies) never appears in a page, an API answer or
 * the console's stderr.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { principalIdOf } from '../../../src/identity/index.js';
import { APPROVAL_FLOW, MARKER } from '../fixtures.js';
import { sessionAtDecisionRecord, writeSessionFile } from '../guided-session.js';
import { chromiumSkipReason, launchChromium, screenshot, startConsoleCli, storedInputHolds } from '../support.js';
import type { RunningConsole } from '../support.js';

const skip = chromiumSkipReason();
const SESSION = 'console-e2e';
/** A second session of the store, picked in the session picker. */
const OTHER_SESSION = 'console-e2e-other';

describe('the web console in Chromium', { skip, concurrency: false }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let running: RunningConsole;
  let workspace: string;
  const answers: string[] = [];
  const pages: string[] = [];

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'rimthan-workspace-'));
    writeSessionFile(workspace, await sessionAtDecisionRecord());
    running = await startConsoleCli(['--session', SESSION, '--workspace', workspace]);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/')) {
        response.text().then(
          (text) => answers.push(text),
          () => undefined,
        );
      }
    });
    await page.goto(running.url);
    await page.waitForSelector('text=Releases');
  });

  after(async () => {
    await browser?.close();
    assert.equal(await running.stop({ keep: true }), 0);
    rmSync(workspace, { recursive: true, force: true });
    // What a person saw, what the API answered and what the console logged: never the participant marker.
    for (const text of [...pages, ...answers, running.stderr.join('\n')])
      assert.ok(!text.includes(MARKER), 'the marker leaked');
    assert.ok(answers.length > 10, 'API answers were seen');
    assert.ok(await storedInputHolds(running.cwd, SESSION, MARKER), 'the marker did reach the run store');
    rmSync(running.cwd, { recursive: true, force: true });
  });

  /** Starts the approval flow from the runs page's generated form, as a person fills it in. */
  async function startApprovalRun(session = SESSION): Promise<void> {
    await page.goto(`${running.origin}/#/runs?session=${session}`);
    await page.locator('details.start summary').click();
    await page.selectOption('#start-definition', `${APPROVAL_FLOW.name}@${APPROVAL_FLOW.version}`);
    for (const [field, text] of Object.entries(APPROVAL_FLOW.form)) await page.fill(`#input-${field}`, text);
    await page.getByRole('button', { name: 'Start run' }).click();
  }

  /** Remembers what the page shows now (checked for the marker at the end). */
  async function seen(): Promise<void> {
    pages.push(await page.content());
  }

  test('the one-time link signed the browser in and cannot be used again', async () => {
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(running.url);
    await second.waitForSelector('text=already used');
    await other.close();
  });

  test('with admin tokens, a person signs in on the login page and sees only their own session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-console-tokens-'));
    writeFileSync(join(dir, 'tokens'), 'browser-test-token-0123456789abcdef\n');
    const withTokens = await startConsoleCli(['--admin-token-file', join(dir, 'tokens')]);
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const login = await other.newPage();
      await login.goto(withTokens.url);
      await login.getByRole('link', { name: 'Sign in with your token' }).click();
      await login.fill('#token', 'browser-test-token-0123456789abcdef');
      await screenshot(login, 'login');
      await login.getByRole('button', { name: 'Sign in' }).click();
      await login.locator('tr[data-release="research-2026.11.2"]').waitFor();
      await login.goto(`${withTokens.origin}/#/runs`);
      await login.getByText('Your session:').waitFor();
      await login.locator('aside.session-picker').getByText('Your session has no runs yet.').waitFor();
      assert.equal(await login.locator('#session').count(), 0, 'a caller cannot name another session');
    } finally {
      await other.close();
      assert.equal(await withTokens.stop(), 0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('shows the releases with the active one, and the packaged workflow as a graph', async () => {
    const row = page.locator('tr[data-release="library-2026.12.1"]');
    await row.locator('.badge-active').waitFor();
    for (const earlier of ['research-2026.10.1', 'research-2026.11.1', 'research-2026.11.2']) {
      assert.equal(await page.locator(`tr[data-release="${earlier}"] .badge-active`).count(), 0);
    }
    await screenshot(page, 'releases');
    await row.getByText('Research to decision').click();
    await page.waitForSelector('svg.graph');
    const titles = await page.locator('svg.graph .node.step text.title').allTextContents();
    for (const title of [
      'Set up the workspace',
      'Plan the research route',
      'Desk research',
      'Prototype spike',
      'Record the decision',
    ]) {
      assert.ok(titles.includes(title), `the graph shows "${title}" (saw ${titles.join(', ')})`);
    }
    assert.equal((await page.locator('svg.graph .node.gated').count()) >= 4, true, 'gated steps are marked');
    const labels = await page.locator('svg.graph .edge-label text').allTextContents();
    assert.deepEqual(labels.sort(), ['research_route = desk-research', 'research_route = prototype-spike']);
    await page.locator('svg.graph .node.branching text.question').first().waitFor();
    await page.locator('tr[data-harness="claude-code"]').getByText('claude-code-host').waitFor();
    await seen();
    await screenshot(page, 'workflow');
  });

  test('opens a step: its question, instruction, outputs with schemas and validators with briefs', async () => {
    await page.locator('svg.graph [data-step="select-route"]').click();
    const detail = page.locator('aside.step-detail');
    await detail.getByText('How should we research this decision?').waitFor();
    await detail.getByText('research_route = desk-research').waitFor();
    await page.locator('svg.graph [data-step="desk-research"]').click();
    await detail.locator('h3', { hasText: 'Desk research' }).waitFor();
    await detail.locator('details.output').first().waitFor();
    assert.ok((await detail.locator('details.validator').count()) >= 1, 'validators are listed');
    await detail.locator('details.output summary').first().click();
    await detail.locator('pre.json').first().waitFor();
    assert.match(page.url(), /steps\/desk-research$/);
    await seen();
    await detail.evaluate((aside: { scrollTo(x: number, y: number): void }) => aside.scrollTo(0, 0));
    await screenshot(page, 'step');
  });

  test('diffs the two packaged releases, with what a migration would invalidate', async () => {
    await page.goto(`${running.origin}/#/diff?from=research-2026.10.1&to=research-2026.11.1`);
    const diff = page.locator('.diff');
    await diff.getByText('research-decision: 1.1.0 → 1.2.0').waitFor();
    await diff.locator('li.added', { hasText: 'prototype-spike' }).waitFor();
    await diff.locator('.entries-added', { hasText: 'spike-reproducibility' }).first().waitFor();
    await diff.locator('.entries-changed', { hasText: 'research-contract' }).waitFor();
    const migration = diff.locator('.migration').first();
    await migration.locator('.badge-added', { hasText: 'possible' }).waitFor();
    await migration.getByText('setup-workspace').waitFor();
    await migration.getByText('evidence-quality@1.0.0').waitFor();
    await seen();
    await screenshot(page, 'diff');
  });

  test('starts a run of the approval flow from its form, follows it live, and resumes it through the resume form', async () => {
    await startApprovalRun();
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}/);
    const timeline = page.locator('ol.timeline');
    await timeline.locator('[data-kind="run_started"]').waitFor();
    await timeline.locator('[data-kind="vertex_completed"]', { hasText: APPROVAL_FLOW.firstVertexLabel }).waitFor();
    await timeline.locator('[data-kind="run_interrupted"]').waitFor();
    await page.locator('.interrupt', { hasText: APPROVAL_FLOW.approvalLabel }).waitFor();
    await page.locator('.badge-status-interrupted').waitFor();
    await seen();
    await screenshot(page, 'run-interrupted');
    await page.check(`#resume-${APPROVAL_FLOW.approveField}`);
    await page.getByRole('button', { name: 'Resume run' }).click();
    await timeline.locator('[data-kind="run_resumed"]').waitFor();
    await timeline.locator('[data-kind="run_completed"]').waitFor();
    await page.locator('h2 .badge-status-completed').waitFor();
    assert.equal(await page.locator('form.cancel').count(), 0, 'a completed run cannot be cancelled');
    await seen();
    await screenshot(page, 'run');
  });

  test('cancels another run with a reason, and filters the runs by status', async () => {
    await startApprovalRun();
    await page.locator('.badge-status-interrupted').waitFor();
    await page.fill('#cancel-reason', 'superseded by 2.4.1');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('ol.timeline [data-kind="run_cancelled"]').waitFor();
    await page.locator('h2 .badge-status-cancelled').waitFor();
    await page.getByText('superseded by 2.4.1').first().waitFor();
    await page.goto(`${running.origin}/#/runs?session=${SESSION}`);
    await page.locator('table.runs tbody tr').nth(1).waitFor();
    assert.equal(await page.locator('table.runs tbody tr').count(), 2);
    await page.selectOption('select[name="status"]', 'cancelled');
    await page.waitForURL(/status=cancelled/);
    await page.locator('table.runs tbody tr').nth(1).waitFor({ state: 'detached' });
    await page.locator('table.runs .badge-status-cancelled').waitFor();
    await seen();
    await screenshot(page, 'runs');
  });

  test('picks another session of the store in the session picker and sees its runs', async () => {
    await startApprovalRun(OTHER_SESSION);
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}/);
    const otherRun = /#\/runs\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
    await page.locator('.badge-status-interrupted').waitFor();
    await page.goto(`${running.origin}/#/runs`);
    const picker = page.locator('aside.session-picker');
    const row = (session: string) => picker.locator(`tr[data-session="${session}"]`);
    await row(OTHER_SESSION).waitFor();
    const listed: (string | null)[] = [];
    for (const r of await picker.locator('tr[data-session]').all()) listed.push(await r.getAttribute('data-session'));
    assert.deepEqual(listed, [SESSION, OTHER_SESSION], 'the sessions of the store, in order');
    assert.equal(await row(SESSION).getAttribute('class'), 'chosen', 'the console’s --session is chosen first');
    await row(SESSION).locator('.badge-status-cancelled', { hasText: '1 cancelled' }).waitFor();
    await row(SESSION).locator('.badge-status-completed', { hasText: '1 completed' }).waitFor();
    assert.equal(await row(SESSION).locator('.total').textContent(), '2');
    await row(OTHER_SESSION).locator('.badge-status-interrupted', { hasText: '1 interrupted' }).waitFor();

    await row(OTHER_SESSION).getByRole('link', { name: OTHER_SESSION }).click();
    await page.waitForURL(new RegExp(`session=${OTHER_SESSION}$`));
    const runs = page.locator('table.runs tbody tr');
    await page.locator(`table.runs tr[data-run="${otherRun}"]`).waitFor();
    assert.equal(await runs.count(), 1, 'only the picked session’s run');
    await page.locator('table.runs .badge-status-interrupted').waitFor();
    assert.equal(await row(OTHER_SESSION).getAttribute('class'), 'chosen');
    await page.locator('.session-runs h3', { hasText: OTHER_SESSION }).waitFor();
    await seen();
    await screenshot(page, 'sessions');

    await row(SESSION).getByRole('link', { name: SESSION, exact: true }).click();
    await page.locator(`table.runs tr[data-run="${otherRun}"]`).waitFor({ state: 'detached' });
    await runs.nth(1).waitFor();
    assert.equal(await runs.count(), 2);
    await seen();
  });

  test('opens a session file from a workflow in progress and shows its current step', async () => {
    await page.goto(`${running.origin}/#/session`);
    await page.getByRole('button', { name: /^Open / }).click();
    await page.locator('.verdict.ok', { hasText: 'library-2026.12.1' }).waitFor();
    await page.locator('.current-step', { hasText: 'Record the decision' }).waitFor();
    assert.equal(await page.locator('svg.graph .node.current').getAttribute('data-step'), 'decision-record');
    assert.ok((await page.locator('svg.graph .node.done').count()) >= 2, 'finished steps are marked');
    await page.locator('.next-summary', { hasText: 'rimthan.prepare_step_validation' }).waitFor();
    await page.locator('.receipts', { hasText: 'desk-findings' }).waitFor();
    await page.locator('.fields', { hasText: 'research_route' }).getByText('desk-research').waitFor();
    await seen();
    await screenshot(page, 'session');
  });

  test('an uploaded session file is checked too, and a tampered one is refused', async () => {
    const session = await sessionAtDecisionRecord();
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-upload-'));
    try {
      const file = join(dir, 'workflow-session.json');
      writeFileSync(file, JSON.stringify(session));
      await page.goto(`${running.origin}/#/session`);
      await page.setInputFiles('#session-file', file);
      await page.locator('.current-step', { hasText: 'Record the decision' }).waitFor();
      const checkpoint = { ...(session.checkpoint as Record<string, unknown>), current_step: 'setup-workspace' };
      writeFileSync(file, JSON.stringify({ ...session, checkpoint }));
      await page.setInputFiles('#session-file', file);
      await page.locator('.verdict.failed', { hasText: 'workflow_checkpoint_error' }).waitFor();
      await seen();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Hostile pages in real Chromium (issue 20, item 12): a page served from another port of the console's host name
 * (the same site: the browser sends the SameSite=Strict cookie along) and one from another host name (localhost
 * against 127.0.0.1) try to sign the operator into the attacker's token session, to sign them out, and to start a
 * run. Each fails, and the console's own page still signs in, starts a run and signs out.
 */
describe('the console against hostile pages in Chromium', { skip, concurrency: false }, () => {
  const OPERATOR = 'hostile-test-operator-token-0123456789';
  const ATTACKER = 'hostile-test-attacker-token-0123456789';
  let dir: string;
  let running: RunningConsole;
  let hostile: Server;
  let hostilePort: number;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The attacker's own sign-in cookie (`name=value`), which their page plants in the operator's browser. */
  let planted = '';

  /** The attacker's pages, each aimed at the console (`target` is its origin). */
  function hostilePage(path: string, target: string): string {
    const form = (action: string, fields: string, enctype = 'application/x-www-form-urlencoded'): string =>
      `<form method="post" action="${target}${action}" enctype="${enctype}">${fields}</form>` +
      '<script>document.forms[0].submit()</script>';
    const run = JSON.stringify({
      definition_name: APPROVAL_FLOW.name,
      definition_version: APPROVAL_FLOW.version,
      input: APPROVAL_FLOW.input,
    });
    switch (path) {
      case '/login':
        return form('/auth', `<input name="token" value="${ATTACKER}">`);
      case '/logout':
        return form('/logout', '');
      case '/run-form':
        // A JSON body smuggled in a text/plain form: `{"…":"=…"}` once the browser joins name and value.
        return form('/api/runs', `<input name='${run.slice(0, -1)},"pad":"' value='"}'>`, 'text/plain');
      case '/run-fetch': {
        // A JSON fetch (needs a CORS preflight the console never grants) and a no-cors one (text/plain).
        const send = (init: string): string =>
          `fetch(${JSON.stringify(`${target}/api/runs`)}, { method: 'POST', credentials: 'include', ${init}` +
          `body: ${JSON.stringify(run)} }).catch(() => undefined).finally(() => { sent += 1; document.title = 'sent ' + sent; });`;
        return `<script>let sent = 0; ${send(`headers: { 'Content-Type': 'application/json' }, `)} ${send(`mode: 'no-cors', `)}</script>`;
      }
      default:
        return 'not found';
    }
  }

  /** The header's "who" line and the runs page's list, as the operator sees them on the console. */
  async function operatorView(): Promise<{ who: string; runs: string }> {
    const view = await context.newPage();
    try {
      await view.goto(`${running.origin}/#/runs`);
      await view.locator('.who, .sign-in').first().waitFor();
      if ((await view.locator('.who').count()) === 0) return { who: 'signed out', runs: '' };
      const who = (await view.locator('.who').textContent()) ?? '';
      await view.locator('aside.session-picker').waitFor();
      // The runs list answers after the page has drawn: read it once nothing on the page is loading any more.
      await view.waitForFunction("!(document.querySelector('main')?.textContent ?? '').includes('Loading…')");
      const runs = (await view.locator('main').textContent()) ?? '';
      return { who, runs };
    } finally {
      await view.close();
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rimthan-console-hostile-'));
    writeFileSync(join(dir, 'tokens'), `${OPERATOR}\n${ATTACKER}\n`);
    running = await startConsoleCli(['--admin-token-file', join(dir, 'tokens')]);
    hostile = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://hostile.invalid');
      // Cookies ignore ports: a cookie set here is sent to the console on the same host name too.
      if (url.pathname === '/plant') res.setHeader('Set-Cookie', `${planted}; Path=/; HttpOnly; SameSite=Strict`);
      const body = hostilePage(url.pathname, url.searchParams.get('target') ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>hostile</title></head><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostilePort = (hostile.address() as AddressInfo).port;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    // The operator signs in on the console's own login page.
    await page.goto(`${running.origin}/login`);
    await page.fill('#token', OPERATOR);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-release="research-2026.11.2"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => hostile.close(() => resolve()));
    assert.equal(await running.stop(), 0);
    rmSync(dir, { recursive: true, force: true });
  });

  const operatorSession = principalIdOf({ kind: 'bearer', token: OPERATOR });
  const attackerSession = principalIdOf({ kind: 'bearer', token: ATTACKER });
  const from = (host: string): { name: string; origin: () => string } => ({
    name: host,
    origin: () => `http://${host}:${hostilePort}`,
  });

  for (const site of [from('127.0.0.1'), from('localhost')]) {
    test(`a page on ${site.name}, another port, cannot sign the operator in as the attacker, nor out`, async () => {
      const target = encodeURIComponent(running.origin);
      await page.goto(`${site.origin()}/login?target=${target}`);
      await page.waitForURL((url) => url.origin === running.origin);
      const afterLogin = (await operatorView()).who;
      assert.ok(!afterLogin.includes(attackerSession), 'not signed in as the attacker');
      assert.ok(afterLogin.includes(operatorSession), `still the operator's session (saw "${afterLogin}")`);
      await page.goto(`${site.origin()}/logout?target=${target}`);
      await page.waitForURL((url) => url.origin === running.origin);
      const afterLogout = (await operatorView()).who;
      assert.ok(afterLogout.includes(operatorSession), `still signed in (saw "${afterLogout}")`);
    });

    test(`a page on ${site.name}, another port, cannot start a run in the operator's session`, async () => {
      const target = encodeURIComponent(running.origin);
      await page.goto(`${site.origin()}/run-fetch?target=${target}`);
      await page.waitForFunction("document.title === 'sent 2'");
      await page.goto(`${site.origin()}/run-form?target=${target}`);
      await page.waitForURL((url) => url.origin === running.origin);
      const { who, runs } = await operatorView();
      assert.ok(who.includes(operatorSession));
      assert.match(runs, /Your session has no runs yet\./);
    });
  }

  test("the console's own page still starts a run and signs out", async () => {
    await page.goto(`${running.origin}/#/runs`);
    await page.locator('details.start summary').click();
    await page.selectOption('#start-definition', `${APPROVAL_FLOW.name}@${APPROVAL_FLOW.version}`);
    for (const [field, text] of Object.entries(APPROVAL_FLOW.form)) await page.fill(`#input-${field}`, text);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}/);
    await page.locator('ol.timeline [data-kind="run_started"]').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with your token' }).waitFor();
    assert.equal((await context.cookies(running.origin)).length, 0, 'the cookie is gone');
  });
  test('a sign-in cookie planted from another port cannot start a run: it comes without its CSRF token', async () => {
    await page.goto(`${running.origin}/login`);
    await page.fill('#token', OPERATOR);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('tr[data-release="research-2026.11.2"]').waitFor();
    assert.equal(new URL(page.url()).pathname, '/', 'the sign-in answer moved the address back to the page');
    // The attacker signs in with their own token (not a browser: any header will do) and plants that cookie.
    planted = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${running.origin}/auth`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers['set-cookie']).split(';')[0] ?? '');
        },
      );
      req.on('error', reject);
      req.end(`token=${ATTACKER}`);
    });
    await page.goto(`http://127.0.0.1:${hostilePort}/plant`);
    const { who } = await operatorView();
    assert.ok(who.includes(attackerSession), `the planted cookie took (saw "${who}")`);
    await page.goto(`${running.origin}/#/runs`);
    await page.locator('details.start summary').click();
    await page.selectOption('#start-definition', `${APPROVAL_FLOW.name}@${APPROVAL_FLOW.version}`);
    for (const [field, text] of Object.entries(APPROVAL_FLOW.form)) await page.fill(`#input-${field}`, text);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.locator('.error-box', { hasText: "must come from the console's own page" }).waitFor();
    const { runs } = await operatorView();
    assert.match(runs, /Your session has no runs yet\./, 'no run landed in the attacker’s session');
  });
});
