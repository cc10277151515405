import type { Browser, Page } from 'playwright-core';
import { closeAfterTest, closeAll } from '@racedata/test-support';
import { startSimProcess } from '@racedata/test-support/sim-process';
import { browserDescribe, launch } from './browser-support';

jest.setTimeout(60_000);
afterEach(closeAll);

// page.evaluate() callbacks run in the page; the little of the DOM they touch, for this file.
declare const document: {
  querySelectorAll(selector: string): ArrayLike<{ href: string; naturalWidth: number; complete: boolean }>;
  getElementById(id: string): unknown;
};
declare const location: { hash: string };

/**
 * The console's docs links as a user follows them: the built `racedata-sim` in a process of its
 * own (the docs come from its installation, as from the image or `npm start`), Chromium on the page.
 */
browserDescribe('the console links its docs pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  async function watched(page: Page): Promise<string[]> {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
    return errors;
  }

  test('a panel link opens its page; a relative link there leads to another page and its heading', async () => {
    const sim = await startSimProcess('json', ['--race-day', 'today']);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    closeAfterTest({ close: () => context.close() });
    const consolePage = await context.newPage();
    const consoleErrors = await watched(consolePage);
    await consolePage.goto(`${sim.base}/_sim/ui`);
    await consolePage.locator('#feed-status', { hasText: 'live' }).waitFor();
    await consolePage.locator('#race-board').waitFor();

    // Every docs link of the page leads to a served page, and to a heading that page has.
    const docLinks = () =>
      consolePage.evaluate(() =>
        Array.from(document.querySelectorAll('a.doc-link, .docs-nav a')).map((a) => a.href),
      );
    const hrefs = await docLinks();
    // Replay and faults are behind their tab.
    await consolePage.locator('#tab-controls').click();
    await consolePage.locator('#replay-title').waitFor();
    hrefs.push(...(await docLinks()));
    await consolePage.locator('#tab-post').click();
    const shown = hrefs.map((href) => href.slice(`${sim.base}/_sim/`.length));
    expect([...new Set(shown)].sort()).toEqual(
      [
        'docs/',
        'docs/console.md',
        'docs/channels.md',
        'docs/control-plane.md#console-endpoints',
        'docs/control-plane.md#faults',
        'docs/race-days.md#the-race-board-in-the-console',
      ].sort(),
    );
    const broken: string[] = [];
    for (const href of new Set(hrefs)) {
      const url = new URL(href);
      const res = await fetch(url);
      const text = await res.text();
      if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/html')) {
        broken.push(`${href}: ${res.status}`);
      } else if (url.hash && !text.includes(` id="${url.hash.slice(1)}"`)) {
        broken.push(`${href}: no heading ${url.hash}`);
      }
    }
    expect(broken).toEqual([]);

    // The users panel's link, in a new tab as the console keeps its state.
    const [usersPage] = await Promise.all([
      context.waitForEvent('page'),
      consolePage.getByRole('link', { name: 'Docs: users, their tokens and subscriptions' }).click(),
    ]);
    const pageErrors = await watched(usersPage);
    await usersPage.waitForLoadState();
    expect(new URL(usersPage.url()).pathname).toBe('/_sim/docs/channels.md');
    await usersPage.getByRole('heading', { level: 1, name: 'Users, channels and payloads' }).waitFor();

    // A relative link with an anchor, to another page.
    await usersPage.locator('a[href="race-days.md#payload-schemas"]').first().click();
    await usersPage.waitForURL(/\/_sim\/docs\/race-days\.md#payload-schemas$/);
    await usersPage.locator('h2#payload-schemas').waitFor();
    expect(await usersPage.evaluate(() => location.hash)).toBe('#payload-schemas');
    await usersPage.locator('h2#payload-schemas').evaluate((heading) => {
      // In view: the browser followed the anchor.
      const box = (
        heading as unknown as { getBoundingClientRect(): { top: number } }
      ).getBoundingClientRect();
      if (box.top < -1 || box.top > 800) throw new Error(`heading at ${box.top}, not in view`);
    });

    // The header's way back to the index, and an image a page shows, loaded under the page's CSP.
    await usersPage.getByRole('link', { name: 'Documentation' }).click();
    await usersPage.waitForURL(/\/_sim\/docs\/$/);
    await usersPage.locator('a[href="console.md"]').click();
    await usersPage.waitForURL(/\/_sim\/docs\/console\.md$/);
    await usersPage.locator('img[src="console.png"]').waitFor();
    const widths = await usersPage.evaluate(() =>
      Array.from(document.querySelectorAll('img')).map((img) => (img.complete ? img.naturalWidth : -1)),
    );
    expect(widths.length).toBeGreaterThan(0);
    expect(widths.every((w) => w > 0)).toBe(true);

    // No CSP violation, no failed load, nothing thrown, on either page.
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('the legacy simulator serves the same pages; the docs index links back to its console', async () => {
    const sim = await startSimProcess('legacy');
    const context = await browser.newContext();
    closeAfterTest({ close: () => context.close() });
    const page = await context.newPage();
    const errors = await watched(page);
    await page.goto(`${sim.base}/_sim/ui`);
    await page.locator('#feed-status', { hasText: 'live' }).waitFor();
    const [docs] = await Promise.all([context.waitForEvent('page'), page.locator('#docs-index').click()]);
    await docs.waitForURL(/\/_sim\/docs\/$/);
    await docs.getByRole('heading', { level: 1, name: 'racedata-sim documentation' }).waitFor();
    await docs.getByRole('link', { name: 'Console (legacy)' }).click();
    await docs.waitForURL(/\/_sim\/ui$/);
    await docs.locator('#feed-status', { hasText: 'live' }).waitFor();
    expect(errors).toEqual([]);
  });
});
