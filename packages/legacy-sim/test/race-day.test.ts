import { ManualClock, type SimulatorSettings } from '@racedata/core';
import {
  dayTimeline,
  deliveryOf,
  generateDay,
  legacyXml,
  localInstant,
  parseEdgeCasesOption,
  payloadKeyOf,
} from '@racedata/race-day';
import { TOKENS } from '@racedata/test-support';
import { closeAll, controlJson, listen, startSim, StompUser } from './support';

afterEach(closeAll);

const DAY: Partial<SimulatorSettings> = {
  raceDay: '2026-05-13',
  raceDaySeed: 7,
  raceDayEdgeCases: 'all',
  raceDayAt: '14:00',
  longPollTimeoutMs: 300,
};
const timeline = () =>
  dayTimeline(
    generateDay({ date: '2026-05-13', seed: 7, meetings: 'auto', edgeCases: parseEdgeCasesOption('all') }),
  );

/** The next `count` queued documents (on a clock that does not move, a poll never times out). */
async function take(base: string, count: number): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const res = await listen(base, TOKENS.testuser, { signal: AbortSignal.timeout(5000) });
    out.push(JSON.parse(await res.text()) as string);
  }
  return out;
}

/** A promise that fails with `what` after `ms`, so a missing message ends the test early. */
function within<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe('the legacy simulator playing a race day', () => {
  it('queues the morning for every user, oldest first, as a client away since then would find it', async () => {
    const s = await startSim(DAY, { clock: new ManualClock(Date.now()) });
    const due = timeline().filter(
      (m) => deliveryOf(m) === 'durable' && m.at <= localInstant('2026-05-13', 14 * 60),
    );
    expect(await take(s.base, due.length)).toEqual(due.map(legacyXml));
    const state = await controlJson<{ users: Record<string, { queueDepth: number }> }>(
      s.base,
      'GET',
      'state',
    );
    expect(state.users.testuser!.queueDepth).toBe(0);
  });

  it('sends the live messages over STOMP as they come, and queues the durable ones', async () => {
    // A clock of its own: the day moves only when the test advances it, however busy the machine.
    const s = await startSim(DAY, { clock: new ManualClock(Date.now()) });
    const from = localInstant('2026-05-13', 14 * 60);
    const day = timeline();
    await take(s.base, day.filter((m) => deliveryOf(m) === 'durable' && m.at <= from).length);
    const stomp = await StompUser.connect(s.ws(), TOKENS.testuser);
    await controlJson(s.base, 'POST', 'clock/advance', { ms: 20 * 60_000 });
    const played = day.filter((m) => m.at > from && m.at <= from + 20 * 60_000);
    const live = played.filter((m) => deliveryOf(m) === 'transient');
    expect(live.length).toBeGreaterThan(100);
    for (const m of live.slice(0, 50)) {
      expect(await within(stomp.nextMessage(), `STOMP ${m.channel}`)).toEqual({
        channel: m.channel,
        payloadKey: payloadKeyOf(m),
        payload: legacyXml(m),
        timestamp: expect.any(String),
      });
    }
    const stored = played.filter((m) => deliveryOf(m) === 'durable');
    expect(await take(s.base, stored.length)).toEqual(stored.map(legacyXml));
    expect(
      (await controlJson<{ users: Record<string, { queueDepth: number }> }>(s.base, 'GET', 'state')).users
        .testuser!.queueDepth,
    ).toBe(0);
  });

  it('journals with source race-day and shows the day in the state', async () => {
    const s = await startSim(DAY);
    const journal = await controlJson<{ entries: Array<{ source: string; channel: string }> }>(
      s.base,
      'GET',
      'journal?kind=received&limit=3',
    );
    expect(journal.entries.map((e) => e.source)).toEqual(['race-day', 'race-day', 'race-day']);
    const state = await controlJson<{ raceDay: unknown }>(s.base, 'GET', 'state');
    expect(state.raceDay).toMatchObject({ on: true, date: '2026-05-13' });
  });
});
