import type { Browser, Page } from 'playwright-core';
import { closeAll, TOKENS } from '@racedata/test-support';
import {
  browserDescribe,
  eventStreamClient,
  expectedRefusals,
  launch,
  openConsole,
  simState,
  stompClient,
  startJson,
  startLegacy,
  type WatchedPage,
} from './browser-support';

jest.setTimeout(60_000);

// page.evaluate() callbacks run in the page, but this project compiles against Node's types
// only: the little of the DOM they touch is declared here, for this file alone.
interface PageNode {
  readonly id: string;
  readonly textContent: string | null;
  readonly value?: string;
}
declare const document: {
  querySelector(selector: string): PageNode | null;
  readonly documentElement: { readonly scrollWidth: number };
  readonly activeElement: PageNode | null;
};
declare const window: { readonly innerWidth: number };

let browser: Browser;
let watched: WatchedPage[] = [];

async function open(base: string, viewport?: { width: number; height: number }): Promise<Page> {
  const w = await openConsole(browser, base, viewport);
  watched.push(w);
  return w.page;
}

const rows = (page: Page, kind?: string) =>
  page.locator(kind ? `#live-table tbody tr[data-kind="${kind}"]` : '#live-table tbody tr');

/** The cell texts of every row shown, one array per row. */
function cells(page: Page): Promise<string[][]> {
  return page.$$eval('#live-table tbody tr', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => (td as PageNode).textContent ?? '')),
  );
}

function postJson(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

browserDescribe('the QA console in Chromium', () => {
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

  test('a message posted from the form shows as a row, with its delivery to a WebSocket client', async () => {
    const sim = await startJson();
    const client = await eventStreamClient(sim.port, TOKENS.alluser);
    const page = await open(sim.base);
    await page.locator('#post-channel').selectOption('TimeToStartTrot');
    // Pre-filled from the bundled recordings, dates moved to today.
    const body = page.locator('#post-body');
    await expectValue(body, /"channel": "TimeToStartTrot"/);
    await expectValue(body, new RegExp(`"date": "${today()}"`));
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'sent to 1 session(s)' }).waitFor();

    const received = rows(page, 'received').filter({ hasText: 'TimeToStartTrot' });
    await received.waitFor();
    await rows(page, 'delivered')
      .filter({ hasText: 'alluser' })
      .filter({ hasText: 'event-stream' })
      .waitFor();
    const data = client.messages.find((m) => m.type === 'Data');
    expect(data).toMatchObject({ data: { channel: 'TimeToStartTrot', date: today() } });
    expect(await received.locator('td').nth(3).textContent()).toBe('transient');
    expect(await received.locator('td').nth(5).textContent()).toBe('post');

    // The payload, pretty-printed, on a row click.
    await received.click();
    await page.locator('#payload', { hasText: '"channel": "TimeToStartTrot"' }).waitFor();
    expect(await page.locator('#payload').textContent()).toMatch(/\n {2}"payload": \{\n {4}"/);

    // The equivalent curl command.
    await page.locator('summary', { hasText: 'curl' }).click();
    expect(await page.locator('#post-curl').textContent()).toMatch(
      new RegExp(
        `^curl -X POST '${sim.base}/api/message' -H 'Content-Type: application/json' --data-binary '\\{`,
      ),
    );
  });

  test('the simulator time ticks on in the page: the stream sends the state only when it changes', async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    const shown = page.locator('#sim-time');
    await shown.waitFor();
    const first = await shown.textContent();
    await page.waitForFunction(
      (before) => document.querySelector('#sim-time')?.textContent !== before,
      first,
    );
  });

  test('bad input gets a clear error next to the field, and nothing is posted', async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    const body = page.locator('#post-body');
    await body.fill('{"channel": "RaceDayTrot", ');
    await page.locator('#post-submit').click();
    await page.locator('#post-problem', { hasText: 'not valid JSON' }).waitFor();
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    expect(await body.getAttribute('aria-describedby')).toBe('post-problem');

    // Well-formed, but the server refuses it: its message is shown where the field is.
    await body.fill(JSON.stringify({ channel: 'NoSuchChannel', date: today(), payload: {} }));
    await page.locator('#post-submit').click();
    await page.locator('#post-problem', { hasText: '400: unknown channel "NoSuchChannel"' }).waitFor();
    await body.fill(JSON.stringify({ channel: 'RaceDayTrot', payload: {} }));
    await page.locator('#post-submit').click();
    await page.locator('#post-problem', { hasText: /^400: .*date/ }).waitFor();
    const state = await simState(sim.base);
    expect(state).toMatchObject({ store: { events: 0 }, journal: { lastSeq: 0 } });
    expect(await rows(page).count()).toBe(0);
    expectedRefusals(watched[0]!, 400, 2);
  });

  test('rows filter by user, channel and transport', async () => {
    const sim = await startJson();
    await eventStreamClient(sim.port, TOKENS.alluser);
    const page = await open(sim.base);
    const event = (channel: string) => ({
      channel,
      date: today(),
      trackId: 901,
      raceNr: 1,
      payload: { n: 1 },
    });
    expect((await postJson(sim.base, '/api/message', event('RaceDayTrot'))).status).toBe(201);
    expect((await postJson(sim.base, '/api/message', event('TimeToStartGallop'))).status).toBe(202);
    // testuser long-polls the durable event: a delivery on the events transport.
    const poll = await fetch(`${sim.base}/customerapi/events?lastEventId=0`, {
      headers: { authorization: `Bearer ${TOKENS.testuser}` },
    });
    expect(poll.status).toBe(200);
    await rows(page).nth(3).waitFor();

    await page.locator('#filter-user').selectOption('testuser');
    await expectRows(page, (r) => r.length === 1 && r.every((c) => c[4] === 'testuser' && c[5] === 'events'));
    await page.locator('#filter-user').selectOption('');
    await page.locator('#filter-transport').selectOption('event-stream');
    await expectRows(
      page,
      (r) => r.length === 1 && r[0]![2] === 'TimeToStartGallop' && r[0]![4] === 'alluser',
    );
    await page.locator('#filter-transport').selectOption('');
    await page.locator('#filter-channel').selectOption('RaceDayTrot');
    await expectRows(page, (r) => r.length === 2 && r.every((c) => c[2] === 'RaceDayTrot'));
    await page.locator('#filter-channel').selectOption('');
    await expectRows(page, (r) => r.length === 4);
  });

  test('replay: start, pause stops the stream, resume starts it again', async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    await page.locator('#tab-controls').click();
    await page.locator('#replay-ms').fill('40');
    await page.locator('#replay-start').click();
    await page.locator('#replay-state', { hasText: 'running' }).waitFor();
    const replayed = rows(page, 'received').filter({ hasText: 'replay' });
    await replayed.nth(4).waitFor();
    await page.locator('#replay-pause').click();
    await page.locator('#replay-state', { hasText: 'paused' }).waitFor();

    // Nothing more is replayed: the journal gets no new entry for 25 intervals (the server
    // times the wait), and the page shows no new row.
    const { journal } = (await simState(sim.base)) as { journal: { lastSeq: number } };
    const shown = await replayed.count();
    const wait = await fetch(
      `${sim.base}/_sim/journal/wait?kind=received&since=${journal.lastSeq}&timeout=1000`,
    );
    expect(wait.status).toBe(408);
    expect(await replayed.count()).toBe(shown);

    await page.locator('#replay-resume').click();
    await page.locator('#replay-state', { hasText: 'running' }).waitFor();
    await replayed.nth(shown).waitFor();
    await page.locator('#replay-next').click();
    await page.locator('#replay-message', { hasText: 'replay next-race: done' }).waitFor();
    await page.locator('#replay-state', { hasText: /next: \d{4}-\d{2}-\d{2} track \d+ race \d+/ }).waitFor();
  });

  test('a fault added from the console makes the next poll fail; connections close; reset asks first', async () => {
    const sim = await startJson();
    const client = await eventStreamClient(sim.port, TOKENS.alluser);
    const page = await open(sim.base);
    await page
      .locator('#users-table tr[data-user="alluser"] [data-field="sockets"]', { hasText: '1' })
      .waitFor();
    await page.locator('#tab-controls').click();
    await page.locator('#fault-type').selectOption('status');
    await page.locator('#fault-transport').selectOption('events');
    await page.locator('#fault-times').fill('1');
    await page.locator('#fault-add').click();
    await page.locator('#fault-list li', { hasText: '503 on events' }).waitFor();

    const poll = () =>
      fetch(`${sim.base}/customerapi/events?lastEventId=0`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
    expect((await poll()).status).toBe(503);
    expect((await poll()).status).not.toBe(503);
    await page.locator('#fault-list li', { hasText: 'no fault rules' }).waitFor();

    // A rule can be removed again.
    await page.locator('#fault-type').selectOption('delay');
    await page.locator('#fault-add').click();
    await page.locator('#fault-list li', { hasText: 'delay 2000 ms' }).waitFor();
    await page.getByRole('button', { name: /Remove fault/ }).click();
    await page.locator('#fault-list li', { hasText: 'no fault rules' }).waitFor();

    await page.locator('#close-user').selectOption('alluser');
    await page.locator('#close-connections').click();
    expect(await client.closed).toBe(1000);
    await page
      .locator('#users-table tr[data-user="alluser"] [data-field="sockets"]', { hasText: '0' })
      .waitFor();

    await postJson(sim.base, '/api/message', { channel: 'RaceDayTrot', date: today(), payload: {} });
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.locator('#reset').click();
    expect(asked).toMatch(/^Reset the simulator\?/);
    expect(await simState(sim.base)).toMatchObject({ store: { events: 1 } });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('#reset').click();
    await page.locator('#fault-message', { hasText: 'reset: done' }).waitFor();
    expect(await simState(sim.base)).toMatchObject({ store: { events: 0 } });
  });

  test('legacy: XML posted from the form is indented in the payload view; malformed XML never leaves the page', async () => {
    const sim = await startLegacy();
    const page = await open(sim.base);
    await page.locator('#post-channel').selectOption('RaceDay');
    await expectValue(page.locator('#post-body'), /^<\?xml version="1.0" encoding="UTF-8"\?><RaceDay /);
    expect(await page.locator('#post-payload-key').inputValue()).toBe(`RaceDay-${today()}-901`);
    expect(await page.locator('input[name="delivery"][value="Durable"]').isChecked()).toBe(true);
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'queued for 1 user(s)' }).waitFor();
    const row = rows(page, 'received').filter({ hasText: `RaceDay-${today()}-901` });
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
      // Start from the top of the page: the header holds nothing focusable.
      await page.locator('h1').click();
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

async function expectValue(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  await locator
    .page()
    .waitForFunction(
      ([selector, source, flags]) =>
        new RegExp(source!, flags).test(document.querySelector(selector!)?.value ?? ''),
      ['#post-body', pattern.source, pattern.flags],
    );
  void locator;
}

async function expectRows(page: Page, ok: (rows: string[][]) => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  let last: string[][] = [];
  while (Date.now() < deadline) {
    last = await cells(page);
    if (ok(last)) return;
    await page.waitForTimeout(20);
  }
  throw new Error(`rows never matched: ${JSON.stringify(last)}`);
}
