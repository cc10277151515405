/**
 * The race board against `racedata-sim json` in its own process, playing a generated day from a
 * few minutes before its first trot race: the board shows the race and only the actions its
 * phase allows; a go-to moves the countdown; a scratch pressed in the page reaches a long-poll
 * consumer of /events (durable) and changes the board.
 */
import { countdownFrom, generateDay, localMinutesOf, parseEdgeCasesOption } from '@racedata/race-day';
import { closeAfterTest, TOKENS } from '@racedata/test-support';
import { startSimProcess } from '@racedata/test-support/sim-process';
import { browserDescribe, expectedRefusals } from './browser-support';
import { rows, useConsolePages } from './console-pages';

jest.setTimeout(60_000);

const DATE = '2026-05-13';
const SEED = 3;
const plan = generateDay({
  date: DATE,
  seed: SEED,
  meetings: 'auto',
  edgeCases: parseEdgeCasesOption('none'),
});
const meeting = plan.meetings.find((m) => m.sport === 'trot')!;
const race = meeting.races[0]!;
/** A few minutes before the race's parade countdown: the race is still ahead. */
const minutes = Math.floor(localMinutesOf(countdownFrom(race)) - 3);
const AT = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

interface JsonEvent {
  eventId: number;
  channel: string;
  trackId?: number;
  raceNr?: number;
  startNr?: number;
}

/** Follows /customerapi/events by lastEventId, as a client does, until the test ends. */
function longPoller(base: string, token: string): { events: JsonEvent[] } {
  const state = { events: [] as JsonEvent[], stopped: false, last: 0 };
  const controller = new AbortController();
  closeAfterTest({ close: () => ((state.stopped = true), controller.abort()) });
  void (async () => {
    while (!state.stopped) {
      const res = await fetch(`${base}/customerapi/events?lastEventId=${state.last}&limit=1000`, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      }).catch(() => undefined);
      if (!res) continue;
      if (res.status !== 200) {
        await res.arrayBuffer().catch(() => undefined);
        continue;
      }
      const page = (await res.json()) as { data: { events: JsonEvent[] } };
      state.events.push(...page.data.events);
      state.last = page.data.events.at(-1)?.eventId ?? state.last;
    }
  })();
  return state;
}

/** Resolves once `found()` holds; fails at its own deadline with what it saw. */
async function until(what: string, found: () => boolean, seen: () => unknown, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!found()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms; saw ${JSON.stringify(seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

browserDescribe('the race board in Chromium', () => {
  const { open, watchedPages } = useConsolePages();

  test('shows the day, goes to 30 s before a start, a scratch pressed reaches a long-poll consumer, the feed filters by race', async () => {
    const sim = await startSimProcess(
      'json',
      [
        '--race-day',
        DATE,
        '--race-day-seed',
        String(SEED),
        '--race-day-edge-cases',
        'none',
        '--race-day-at',
        AT,
      ],
      { LONG_POLL_TIMEOUT_MS: '1000' },
    );
    const consumer = longPoller(sim.base, TOKENS.alluser);
    const page = await open(sim.base);
    await page.locator('#race-board-note', { hasText: "simulator's model of the day" }).waitFor();
    const card = page.locator(`article.race[data-track="${meeting.trackId}"][data-race="${race.raceNr}"]`);
    await card.waitFor();
    expect(await card.getAttribute('data-phase')).toBe('scheduled');
    expect(await card.locator('.race-scheduled').textContent()).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    // What the phase forbids has no enabled button: no result actions before the race has run.
    for (const forbidden of ['dead-heat', 'correct-result', 'disqualify']) {
      expect(await card.locator(`button[data-action="${forbidden}"]:enabled`).count()).toBe(0);
    }
    await card.locator('button[data-action="scratch"]:enabled').waitFor();

    // Go to 30 s before the start: the phase turns to countdown and the countdown shows it.
    await card.locator(`#goto-${meeting.trackId}-${race.raceNr}-seconds`).fill('-30');
    await card.locator(`#goto-${meeting.trackId}-${race.raceNr}-phase`).selectOption('start');
    await card.locator('.race-goto-button').click();
    await card.locator('.race-goto-note', { hasText: 'race countdown' }).waitFor();
    await page
      .locator(
        `article.race[data-track="${meeting.trackId}"][data-race="${race.raceNr}"][data-phase="countdown"]`,
      )
      .waitFor();
    const countdown = card.locator('.race-countdown');
    await countdown.filter({ hasText: /^starts in 0:(30|2\d)$/ }).waitFor();
    const first = await countdown.textContent();
    // It runs on the day's clock between polls.
    await countdown
      .filter({ hasNotText: first ?? '' })
      .filter({ hasText: /^starts in 0:[0-2]\d$/ })
      .waitFor();
    expect(await card.locator('button[data-action="dead-heat"]:enabled').count()).toBe(0);

    // Scratch a start from the page.
    const startNr = race.starters[1]!.startNr;
    const before = consumer.events.length;
    await card.locator('button[data-action="scratch"]').click();
    await card.locator(`#act-${meeting.trackId}-${race.raceNr}-startNr`).selectOption(String(startNr));
    await card.locator('form[data-action="scratch"] button[type="submit"]').click();
    // The press shows the messages it sent.
    const outcome = card.locator('.race-outcome');
    await outcome.locator('li[data-channel="ScratchingsTrot"]').waitFor();
    expect(
      await outcome.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-channel'))),
    ).toEqual(['ScratchingsTrot', 'StartListTrot']);
    // The board changes: the start is scratched.
    await card.locator(`tr[data-start="${startNr}"][data-status="scratched"]`).waitFor({ state: 'attached' });
    // A long-poll consumer of /events gets the scratching (durable).
    const scratching = (e: JsonEvent) =>
      e.channel === 'ScratchingsTrot' &&
      e.trackId === meeting.trackId &&
      e.raceNr === race.raceNr &&
      e.startNr === startNr;
    await until(
      'the Scratchings event on /customerapi/events',
      () => consumer.events.slice(before).some(scratching),
      () => consumer.events.slice(before).map((e) => [e.channel, e.trackId, e.raceNr, e.startNr]),
    );
    // A scratched start cannot be scratched again: the form offers it as scratched; the server refuses.
    await card.locator('button[data-action="scratch"]').click();
    await card.locator(`#act-${meeting.trackId}-${race.raceNr}-startNr`).selectOption(String(startNr));
    await card.locator('form[data-action="scratch"] button[type="submit"]').click();
    await card.locator('.race-outcome[role="alert"]', { hasText: 'scratched' }).waitFor();
    expectedRefusals(watchedPages()[0]!, 409, 1);
    expect(consumer.events.slice(before).filter(scratching)).toHaveLength(1);

    // The live feed filtered to the race: its messages and their deliveries, no other race's.
    const all = await rows(page, 'received').count();
    await card.locator('button.race-filter').click();
    await page
      .locator('#filter-race', { hasText: `Race ${race.raceNr} at track ${meeting.trackId}` })
      .waitFor();
    await rows(page, 'received').filter({ hasText: 'ScratchingsTrot' }).first().waitFor();
    await rows(page, 'delivered').filter({ hasText: 'ScratchingsTrot' }).first().waitFor();
    const shown = await rows(page, 'received').evaluateAll((trs) =>
      trs.map((tr) => Number(tr.getAttribute('data-seq'))),
    );
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(all);
    for (const seq of shown) {
      const { payload } = (await (await fetch(`${sim.base}/_sim/messages/${seq}`)).json()) as {
        payload: string;
      };
      expect(JSON.parse(payload)).toMatchObject({ trackId: meeting.trackId, raceNr: race.raceNr });
    }
    await page.locator('#filter-race').click();
    await page.locator('#filter-race').waitFor({ state: 'detached' });
  });
});
