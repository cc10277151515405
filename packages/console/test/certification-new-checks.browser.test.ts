/**
 * The checks that take the simulator away or change what it sends, watched in the console: the
 * page follows the certification across the outage of survives-restart (its stream reconnects
 * once the simulator is back) and shows each new check's verdict with its evidence.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { certify, type ClientVariables, type ProgressEvent } from '@racedata/certify';
import { consoleAssets } from '@racedata/console';
import { closeAfterTest } from '@racedata/test-support';
import { browserDescribe } from './browser-support';
import { useConsolePages } from './console-pages';

jest.setTimeout(90_000);

const CLIENT = path.resolve(__dirname, '../../../examples/certify/events-client.mjs');
const NEW_CHECKS = ['gives-up-on-stalled-poll', 'tolerates-unknown', 'survives-restart'];

/** How Chromium logs a request the network failed (not one the server answered with an error). */
const OUTAGE_ERROR = /^console: Failed to load resource: net::ERR_[A-Z_]+$/;

type SuiteStart = Extract<ProgressEvent, { type: 'suite-start' }>;

browserDescribe('the QA console during the checks that stall, change and restart', () => {
  const { open, watchedPages } = useConsolePages();

  test('shows each new check graded with its evidence, the restart included', async () => {
    let started!: (event: SuiteStart) => void;
    const suiteStart = new Promise<SuiteStart>((resolve) => (started = resolve));
    const interrupt = new AbortController();
    const run = certify({
      suite: 'events',
      attach: { port: 0 },
      // The whole-run check plays after the restart: time for the page to be back.
      only: [...NEW_CHECKS, 'follows-last-event-id'],
      consoleAssets,
      timeoutMs: 80_000,
      signal: interrupt.signal,
      progress: (event) => {
        if (event.type === 'suite-start') started(event);
      },
    });
    closeAfterTest({ close: () => (interrupt.abort(), run.catch(() => undefined)) });
    const start = await suiteStart;
    const page = await open((start.console ?? '').replace(/\/_sim\/ui$/, ''));
    const row = (id: string) => page.locator(`#cert-checks tr[data-check="${id}"]`);
    for (const id of NEW_CHECKS) expect(await row(id).getAttribute('data-status')).toBe('pending');

    startClient(start.variables);
    const report = await run;
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['gives-up-on-stalled-poll', 'pass'],
      ['tolerates-unknown', 'pass'],
      ['survives-restart', 'pass'],
      ['follows-last-event-id', 'pass'],
    ]);
    // The page came back after the outage and saw the run to its end.
    await page.locator('#cert-state', { hasText: 'finished: 4 passed, 0 failed' }).waitFor();
    for (const id of NEW_CHECKS) {
      expect(await row(id).getAttribute('data-status')).toBe('pass');
      const summary = report.checks.find((c) => c.id === id)?.summary ?? '';
      await row(id)
        .locator('td', { hasText: summary.slice(0, 40) })
        .first()
        .waitFor();
    }
    const evidence = row('survives-restart').locator('details.cert-evidence');
    await evidence.locator('summary').click();
    await evidence.locator('ol li', { hasText: 'the simulator went away' }).first().waitFor();
    await evidence
      .locator('ol li', { hasText: 'the simulator answers again, with its state' })
      .first()
      .waitFor();
    const stalled = row('gives-up-on-stalled-poll').locator('details.cert-evidence');
    await stalled.locator('summary').click();
    await stalled.locator('ol li', { hasText: 'gave up after' }).first().waitFor();
    // The browser logs the outage it lived through (the stream cut, then refused or reset while
    // it reconnected): those, and only those, are expected.
    const watched = watchedPages()[0]!;
    const outage = watched.errors.filter((e) => OUTAGE_ERROR.test(e));
    expect(outage.length).toBeGreaterThan(0);
    watched.errors = watched.errors.filter((e) => !OUTAGE_ERROR.test(e));
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
