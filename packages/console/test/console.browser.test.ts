import { TOKENS } from '@racedata/test-support';
import { browserDescribe, eventStreamClient, expectedRefusals, simState, startJson } from './browser-support';
import {
  type PageNode,
  rows,
  postJson,
  today,
  expectValue,
  expectRows,
  useConsolePages,
} from './console-pages';

jest.setTimeout(60_000);

// page.evaluate() callbacks run in the page; the little of the DOM they touch, for this file.
declare const document: {
  querySelector(selector: string): PageNode | null;
};

browserDescribe('the QA console in Chromium', () => {
  const { open, watchedPages } = useConsolePages();

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

  test("a post no connected subscriber can receive shows the simulator's notice under the result", async () => {
    const sim = await startJson();
    const page = await open(sim.base);
    await page.locator('#post-channel').selectOption('ScratchingsTrot');
    await expectValue(page.locator('#post-body'), /"channel": "ScratchingsTrot"/);
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'stored as eventId' }).waitFor();
    await page
      .locator('#post-notice', {
        hasText: 'no user subscribed to "ScratchingsTrot" (alluser) is connected now',
      })
      .waitFor();
    // With alluser on the event stream the same post carries no notice.
    await eventStreamClient(sim.port, TOKENS.alluser);
    await page.locator('#post-submit').click();
    await page.locator('#post-result', { hasText: 'stored as eventId 2' }).waitFor();
    expect(await page.locator('#post-notice').count()).toBe(0);
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
    expectedRefusals(watchedPages()[0]!, 400, 2);
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
});
