/**
 * A run's flow graph on its run page, in a real headless Chromium: a run of graph_demo (test/console/graph-flows.ts)
 * started from its form is drawn with each vertex's state, and the drawing follows the run live as the test sends the
 * events that hold it: parked on event `go`, its two parallel branches done side by side, parked on its child run
 * (a link to the child's run page, whose own graph shows it waiting), completed. The run's input never shows.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_RUN_STORE, openStore } from '../../../src/cli/run-store.js';
import { systemClock } from '../../../src/core/index.js';
import { sendEvent } from '../../../src/runs/index.js';
import { MARKER } from '../fixtures.js';
import { chromiumSkipReason, launchChromium, screenshot, startConsoleCli } from '../support.js';
import type { RunningConsole } from '../support.js';

const skip = chromiumSkipReason();
const SESSION = 'console-flow-graph';
const FLOWS = fileURLToPath(new URL('../graph-flows.js', import.meta.url));

describe('the run page draws the flow graph live in Chromium', { skip, concurrency: false }, () => {
  let browser: Browser;
  let page: Page;
  let running: RunningConsole;
  const pages: string[] = [];

  before(async () => {
    running = await startConsoleCli(['--session', SESSION, '--flows', FLOWS], {}, undefined, {
      workerArgs: ['--flows', FLOWS],
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    await page.goto(running.url);
    await page.waitForSelector('text=Releases');
  });

  after(async () => {
    await browser?.close();
    assert.equal(await running.stop(), 0);
    for (const text of [...pages, running.stderr.join('\n')]) assert.ok(!text.includes(MARKER), 'the input leaked');
  });

  async function send(runId: string, name: string): Promise<void> {
    const store = await openStore(DEFAULT_RUN_STORE, running.cwd, { create: false });
    try {
      await sendEvent(store, systemClock, {
        runId,
        sessionId: SESSION,
        name,
        eventId: `${name}-${runId}`,
        payload: {},
      });
    } finally {
      await store.close();
    }
  }

  const vertex = (id: string, state: string) => page.locator(`svg.graph g[data-vertex="${id}"][data-state="${state}"]`);

  test('vertex states change as the run advances through its branches and its child run', async () => {
    await page.goto(`${running.origin}/#/runs?session=${SESSION}`);
    await page.locator('details.start summary').click();
    await page.selectOption('#start-definition', 'graph_demo@v1');
    await page.fill('#input-topic', MARKER);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}/);
    const runId = /#\/runs\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';

    // Parked on event `go`: plan runs, the rest waits.
    await vertex('plan', 'running').waitFor();
    await page.locator('[data-await="event"]', { hasText: 'go' }).waitFor();
    for (const id of ['left', 'right', 'gather', 'delegate', 'finish']) await vertex(id, 'waiting').waitFor();
    pages.push(await page.content());

    // The branches run and join; delegate parks on its child, which the page links.
    await send(runId, 'go');
    await vertex('delegate', 'running').waitFor();
    for (const id of ['plan', 'left', 'right', 'gather']) await vertex(id, 'done').waitFor();
    const left = await vertex('left', 'done').boundingBox();
    const right = await vertex('right', 'done').boundingBox();
    assert.ok(left !== null && right !== null);
    assert.equal(Math.round(left.y), Math.round(right.y), 'the parallel branches are side by side');
    assert.notEqual(Math.round(left.x), Math.round(right.x));
    const childLink = page.locator('ul.child-runs a', { hasText: 'graph_child@v1' });
    await childLink.waitFor();
    await page.locator('[data-await="child"]').waitFor();
    pages.push(await page.content());
    await screenshot(page, 'run-graph');

    // The child's own page: its graph waits on `release`.
    await childLink.click();
    await page.waitForURL((url) => !url.hash.includes(runId));
    const childId = /#\/runs\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
    assert.notEqual(childId, '');
    await vertex('hold', 'running').waitFor();
    await page.locator('[data-await="event"]', { hasText: 'release' }).waitFor();
    pages.push(await page.content());

    // Back on the parent: releasing the child completes both, live.
    await page.goBack();
    await vertex('delegate', 'running').waitFor();
    await send(childId, 'release');
    await vertex('finish', 'done').waitFor();
    await page.locator('h2 .badge-status-completed').waitFor();
    for (const id of ['plan', 'left', 'right', 'gather', 'delegate']) await vertex(id, 'done').waitFor();
    await page.locator('ul.child-runs li[data-status="completed"]').waitFor();
    pages.push(await page.content());
  });
  test('a finished run shows its routed failure, its forEach vertex, its decision and the branch never taken', async () => {
    await page.goto(`${running.origin}/#/runs?session=${SESSION}`);
    await page.locator('details.start summary').click();
    await page.selectOption('#start-definition', 'graph_shapes@v1');
    await page.fill('#input-topic', MARKER);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/#\/runs\/[0-9a-f-]{36}/);
    await page.locator('h2 .badge-status-completed').waitFor();
    await vertex('publish', 'skipped').waitFor();
    await vertex('fetch', 'failed').waitFor();
    await page.locator('svg.graph g[data-vertex="fetch"]', { hasText: 'handled by fallback' }).waitFor();
    for (const id of ['split', 'count', 'tally', 'merge', 'fallback', 'each']) await vertex(id, 'done').waitFor();
    await page.locator('svg.graph g[data-decision="merge"]').waitFor();
    assert.equal(await page.locator('svg.graph g.edge.error').count(), 1, 'one error route');
    assert.equal(await page.locator('svg.graph g.edge.conditional').count(), 1, 'one conditional edge');
    pages.push(await page.content());
    await screenshot(page, 'run-graph-routes');
  });
});
