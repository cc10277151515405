import { TOKENS } from '@racedata/test-support';
import { browserDescribe, simState, startJson, startLegacy, stompClient } from './browser-support';
import { type PageNode, rows, postJson, today, expectValue, useConsolePages } from './console-pages';

jest.setTimeout(60_000);

// page.evaluate() callbacks run in the page; the little of the DOM they touch, for this file.
declare const document: {
  querySelector(selector: string): PageNode | null;
  readonly documentElement: { readonly scrollWidth: number };
  readonly activeElement: PageNode | null;
};
declare const window: { readonly innerWidth: number };

browserDescribe('the QA console in Chromium: legacy, keyboard and load', () => {
  const { open } = useConsolePages();

  test('legacy: XML posted from the form is indented in the payload view; malformed XML never leaves the page', async () => {
    const sim = await startLegacy();
    const page = await open(sim.base);
    await page.locator('#post-channel').selectOption('RaceDay');
    await expectValue(page.locator('#post-body'), /^<\?xml version="1.0" encoding="UTF-8"\?><RaceDay /);
    expect(await page.locator('#post-payload-key').inputValue()).toBe(`RaceDay-${today()}-952`);
    expect(await page.locator('input[name="delivery"][value="Durable"]').isChecked()).toBe(true);
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'queued for 1 user(s)' }).waitFor();
    const row = rows(page, 'received').filter({ hasText: `RaceDay-${today()}-952` });
    await row.click();
    await page.locator('#payload', { hasText: '<Races>' }).waitFor();
    expect(await page.locator('#payload').textContent()).toMatch(/\n {2}<Races>\n {4}<Race raceNr="1"/);

    await page.locator('#post-body').fill('<RaceDay><Races></RaceDay>');
    await page.locator('#post-submit').click();
    await page.locator('#post-problem', { hasText: 'not well-formed XML' }).waitFor();
    expect(await simState(sim.base)).toMatchObject({ queues: { messages: 1 }, journal: { lastSeq: 1 } });
  });

  test('legacy: a NonDurable post from the form reaches a STOMP subscriber, and both show as rows', async () => {
    const sim = await startLegacy();
    const stomp = await stompClient(sim.port, TOKENS.testuser);
    const page = await open(sim.base);
    await page
      .locator('#users-table tr[data-user="testuser"] [data-field="sockets"]', { hasText: '1' })
      .waitFor();
    await page.locator('#post-channel').selectOption('TimeToStart');
    // The form takes the channel's delivery from the catalog: transient, so NonDurable.
    await expectValue(page.locator('#post-body'), /<TimeToStart /);
    await page.locator('input[name="delivery"][value="NonDurable"]:checked').waitFor();
    await page.locator('#post-payload-key').fill('console-check');
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'sent to 1 session(s)' }).waitFor();
    const message = await stomp.next((f) => f.startsWith('MESSAGE'));
    const body = JSON.parse(message.slice(message.indexOf('\n\n') + 2, message.lastIndexOf('\0'))) as {
      channel: string;
      payloadKey: string;
      payload: string;
    };
    expect(body).toMatchObject({ channel: 'TimeToStart', payloadKey: 'console-check' });
    expect(body.payload).toMatch(new RegExp(`<TimeToStart date="${today()}"`));
    await rows(page, 'received').filter({ hasText: 'console-check' }).waitFor();
    const delivered = rows(page, 'delivered').filter({ hasText: 'console-check' });
    await delivered.waitFor();
    expect(await delivered.locator('td').nth(5).textContent()).toBe('stomp');
    // A delivery shows the payload of the message it carried.
    await delivered.click();
    await page.locator('#payload', { hasText: '<TimeToStart' }).waitFor();
  });

  test('every control is labelled and reachable by keyboard; readable at 1280x800 and in a narrow window', async () => {
    const sim = await startJson();
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 420, height: 860 },
    ]) {
      const page = await open(sim.base, viewport);
      for (const tab of ['#tab-post', '#tab-controls']) {
        await page.locator(tab).click();
        const unlabelled = await page.$$eval('input, select, textarea, button', (controls) =>
          controls
            .filter((c) => {
              const labelled =
                (c as unknown as { labels?: { length: number } }).labels?.length ||
                c.getAttribute('aria-label');
              return !labelled && !(c.tagName === 'BUTTON' && (c.textContent ?? '').trim() !== '');
            })
            .map((c) => c.outerHTML.slice(0, 80)),
        );
        expect(unlabelled).toEqual([]);
        // Nothing wider than the window: the table scrolls inside its own box.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      // Keyboard: Tab from the top reaches the filters, and a focused row opens with Enter.
      const k = viewport.width;
      await postJson(sim.base, '/api/message', { channel: 'RaceDayTrot', date: today(), payload: { k } });
      await rows(page).first().waitFor();
      // Start from the top of the page: the header holds the two docs links, then the live view.
      await page.locator('h1').click();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('docs-index');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('docs-console');
      // The live view's heading links its docs page before its filters.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('docs');
      expect(await page.locator('#live-title a.doc-link').evaluate((a) => a === document.activeElement)).toBe(
        true,
      );
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter-user');
      await postJson(sim.base, '/api/message', {
        channel: 'RaceDayTrot',
        date: today(),
        payload: { k: k + 1 },
      });
      const { journal } = (await simState(sim.base)) as { journal: { lastSeq: number } };
      // The newest row is the second post before the keys go.
      await page.locator(`#live-table tbody tr:first-child[data-seq="${journal.lastSeq}"]`).waitFor();
      // The table is one tab stop (the newest row); the arrows move between rows.
      await rows(page).first().focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.locator('#payload', { hasText: `"k": ${k}\n` }).waitFor();
      expect(await rows(page).nth(1).getAttribute('tabindex')).toBe('0');
      expect(await rows(page).first().getAttribute('tabindex')).toBe('-1');
    }
  });

  test('stays responsive at 200 messages a second, keeping a bounded number of rows', async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    await page.locator('#tab-controls').click();
    await page.locator('#replay-ms').fill('5');
    await page.locator('#replay-start').click();
    await page.waitForFunction(
      () =>
        /^(\d+) entries/.test(document.querySelector('.count')?.textContent ?? '') &&
        Number(/^(\d+)/.exec(document.querySelector('.count')!.textContent!)![1]) > 600,
    );
    expect(await rows(page).count()).toBeLessThanOrEqual(200);
    // The page still answers input at once while the rows flow.
    const started = Date.now();
    await page.locator('#live-pause').click();
    await page.locator('#live-pause', { hasText: 'Resume view' }).waitFor();
    expect(Date.now() - started).toBeLessThan(1000);
    const frozen = await page.locator('#live-table tbody tr').first().getAttribute('data-seq');
    await page.locator('#live-pause', { hasText: /new\)/ }).waitFor();
    expect(await page.locator('#live-table tbody tr').first().getAttribute('data-seq')).toBe(frozen);
    await postJson(sim.base, '/_sim/replay', { action: 'pause' });
  });
});
