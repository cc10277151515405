/**
 * A real certification watched in the console: the runner plays the events suite with --attach
 * (it waits for the client, so the page is open before anything is graded), the reference client
 * is started by hand with the variables it printed, and the page follows the checks live.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { certify, type ClientVariables, type ProgressEvent } from '@racedata/certify';
import { consoleAssets } from '@racedata/console';
import { closeAfterTest } from '@racedata/test-support';
import { browserDescribe, startJson } from './browser-support';
import { useConsolePages } from './console-pages';

jest.setTimeout(60_000);

const CLIENT = path.resolve(__dirname, '../../../examples/certify/events-client.mjs');

type SuiteStart = Extract<ProgressEvent, { type: 'suite-start' }>;

browserDescribe('the QA console during a certification', () => {
  const { open, watchedPages } = useConsolePages();

  test('shows the suite, each check turning from pending to its verdict, and how the suite ended', async () => {
    let started!: (event: SuiteStart) => void;
    const suiteStart = new Promise<SuiteStart>((resolve) => (started = resolve));
    const interrupt = new AbortController();
    const run = certify({
      suite: 'events',
      attach: { port: 0 },
      only: ['auth-key-secret', 'repoll-after-200'],
      consoleAssets,
      timeoutMs: 50_000,
      signal: interrupt.signal,
      progress: (event) => {
        if (event.type === 'suite-start') started(event);
      },
    });
    // A failing test still ends the run (Ctrl-C's way) before the next one starts.
    closeAfterTest({ close: () => (interrupt.abort(), run.catch(() => undefined)) });
    const start = await suiteStart;
    expect(start.console).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_sim\/ui$/);
    const page = await open((start.console ?? '').replace(/\/_sim\/ui$/, ''));

    // Before the client: the suite, "attached", and every selected check still to come.
    await page.locator('#cert-state', { hasText: 'waiting for a client started by hand' }).waitFor();
    // The heading, then its link to certify.md.
    expect(await page.locator('#cert-title').textContent()).toBe('Certification events docs');
    expect(await page.locator('#cert-title a.doc-link').getAttribute('href')).toBe(
      'docs/certify.md#watching-a-certification-in-the-console',
    );
    expect(await page.locator('#cert-client').textContent()).toBe('attached');
    expect(await page.locator('#cert-timings').textContent()).toMatch(/^long-poll timeout 2000 ms/);
    const row = (id: string) => page.locator(`#cert-checks tr[data-check="${id}"]`);
    for (const id of ['auth-key-secret', 'repoll-after-200']) {
      expect(await row(id).getAttribute('data-status')).toBe('pending');
      expect(await row(id).locator('.cert-status').textContent()).toBe('pending');
    }
    expect(await row('auth-key-secret').locator('.cert-sub').textContent()).toMatch(/^required · /);

    startClient(start.variables);
    // Another process on the port (here: this one, without the run's credentials) is foreign:
    // counted and sampled on the page, graded nowhere.
    const base = start.variables.RACEDATA_URL ?? '';
    for (let i = 0; i < 3; i++)
      await (await fetch(`${base}/customerapi/events?neighbour=${i}`)).arrayBuffer();
    await page
      .locator('#cert-foreign', { hasText: '3 request(s) or upgrade(s) not from the certified client' })
      .waitFor();
    await page.locator('#cert-foreign summary').click();
    await page
      .locator('#cert-foreign li', { hasText: 'GET /customerapi/events?neighbour=0 -> 401' })
      .waitFor();
    await row('auth-key-secret').and(page.locator('[data-status="pass"]')).waitFor();
    expect(await row('auth-key-secret').locator('.cert-status').textContent()).toBe('pass');

    // From here the run ends and closes its simulator: a request of the page in flight then
    // is reset or refused, and the browser logs it as an error.
    const beforeClose = watchedPages()[0]!.errors.length;
    const report = await run;
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['auth-key-secret', 'pass'],
      ['repoll-after-200', 'pass'],
    ]);
    expect(report.foreign?.count).toBe(3);
    // The simulator has closed: the page keeps the last state it was sent, the end included.
    await page.locator('#cert-state', { hasText: 'finished: 2 passed, 0 failed' }).waitFor();
    await page.locator('#feed-status', { hasText: 'ended' }).waitFor();
    expect(await row('repoll-after-200').getAttribute('data-status')).toBe('pass');
    // Evidence on demand: folded until asked for.
    const evidence = row('repoll-after-200').locator('details.cert-evidence');
    expect(await evidence.locator('ol').isVisible()).toBe(false);
    await evidence.locator('summary').click();
    await evidence.locator('ol li', { hasText: 'GET /customerapi/events' }).first().waitFor();
    const watched = watchedPages()[0]!;
    const closed = (e: string, i: number) =>
      i >= beforeClose && /net::ERR_CONNECTION_(RESET|REFUSED)/.test(e);
    watched.errors = watched.errors.filter((e, i) => !closed(e, i));
  });

  test('a simulator that runs no certification shows no Certification panel', async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    await page.locator('#users-table').waitFor();
    expect(await page.locator('#certification').count()).toBe(0);
  });
});

/** The reference client, started by hand as --attach asks, with the variables certify printed. */
function startClient(variables: ClientVariables): void {
  const child = spawn(process.execPath, [CLIENT], {
    env: { ...process.env, ...variables },
    stdio: 'ignore',
  });
  closeAfterTest({
    close: () =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve).kill())
        : undefined,
  });
}
