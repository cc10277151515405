import type { SimulatorSettings } from '@racedata/core';
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

/** Every queued document, in the order the listen endpoint hands them out. */
async function drain(base: string): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const res = await listen(base, TOKENS.testuser);
    if (res.status === 204) return out;
    out.push(JSON.parse(await res.text()) as string);
  }
}

describe('the legacy simulator playing a race day', () => {
  it('queues the morning for every user, oldest first, as a client away since then would find it', async () => {
    const s = await startSim(DAY);
    const due = timeline().filter(
      (m) => deliveryOf(m) === 'durable' && m.at <= localInstant('2026-05-13', 14 * 60),
    );
    expect(await drain(s.base)).toEqual(due.map(legacyXml));
    const state = await controlJson<{ users: Record<string, { queueDepth: number }> }>(
      s.base,
      'GET',
      'state',
    );
    expect(state.users.testuser!.queueDepth).toBe(0);
  });

  it('sends the live messages over STOMP as they come, and queues the durable ones', async () => {
    const s = await startSim(DAY);
    await drain(s.base);
    const stomp = await StompUser.connect(s.ws(), TOKENS.testuser);
    await controlJson(s.base, 'POST', 'clock/advance', { ms: 20 * 60_000 });
    const from = localInstant('2026-05-13', 14 * 60);
    const played = timeline().filter((m) => m.at > from && m.at <= from + 20 * 60_000);
    const live = played.filter((m) => deliveryOf(m) === 'transient');
    expect(live.length).toBeGreaterThan(100);
    for (const m of live.slice(0, 50)) {
      expect(await stomp.nextMessage()).toEqual({
        channel: m.channel,
        payloadKey: payloadKeyOf(m),
        payload: legacyXml(m),
        timestamp: expect.any(String),
      });
    }
    expect(await drain(s.base)).toEqual(played.filter((m) => deliveryOf(m) === 'durable').map(legacyXml));
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
