/**
 * What the console's page tests share: a browser per file, pages opened on a simulator with
 * their console errors watched (each test fails on any), and reading the live table.
 */
import type { Browser, Page } from 'playwright-core';
import { closeAll } from '@racedata/test-support';
import { launch, openConsole, type WatchedPage } from './browser-support';

// page.evaluate() callbacks run in the page, but this project compiles against Node's types
// only: the little of the DOM they touch is declared here, for these files alone.
export interface PageNode {
  readonly id: string;
  readonly textContent: string | null;
  readonly value?: string;
}
declare const document: {
  querySelector(selector: string): PageNode | null;
};

/**
 * Launches Chromium for the calling describe block and closes what each test opened; a test
 * fails when its pages logged an error. `open` opens the console on a simulator.
 */
export function useConsolePages(): {
  open: (base: string, viewport?: { width: number; height: number }) => Promise<Page>;
  /** The pages opened so far in this test, to mark the refusals a test expects. */
  watchedPages: () => readonly WatchedPage[];
} {
  let browser: Browser;
  let watched: WatchedPage[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    const errors = watched.flatMap((w) => w.errors);
    watched = [];
    await closeAll();
    expect(errors).toEqual([]);
  });
  return {
    open: async (base, viewport) => {
      const w = await openConsole(browser, base, viewport);
      watched.push(w);
      return w.page;
    },
    watchedPages: () => watched,
  };
}

export const rows = (page: Page, kind?: string) =>
  page.locator(kind ? `#live-table tbody tr[data-kind="${kind}"]` : '#live-table tbody tr');

/** The cell texts of every row shown, one array per row. */
export function cells(page: Page): Promise<string[][]> {
  return page.$$eval('#live-table tbody tr', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => (td as PageNode).textContent ?? '')),
  );
}

export function postJson(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export async function expectValue(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  await locator
    .page()
    .waitForFunction(
      ([selector, source, flags]) =>
        new RegExp(source!, flags).test(document.querySelector(selector!)?.value ?? ''),
      ['#post-body', pattern.source, pattern.flags],
    );
  void locator;
}

export async function expectRows(page: Page, ok: (rows: string[][]) => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  let last: string[][] = [];
  while (Date.now() < deadline) {
    last = await cells(page);
    if (ok(last)) return;
    await page.waitForTimeout(20);
  }
  throw new Error(`rows never matched: ${JSON.stringify(last)}`);
}
