import { ChannelCatalog, isSimError, ManualClock, UserTable, type SimulatorSettings } from '@racedata/core';
import {
  dayTimeline,
  deliveryOf,
  generateDay,
  jsonEvent,
  localInstant,
  parseEdgeCasesOption,
  type DayMessage,
} from '@racedata/race-day';
import { TOKENS } from '@racedata/test-support';
import {
  closeAll,
  connectAuthenticated,
  EVENTS_PATH,
  get,
  MESSAGE_PATH,
  postJson,
  startSim,
  type EventPageBody,
} from './helpers';

afterEach(closeAll);

const DAY: Partial<SimulatorSettings> = {
  raceDay: '2026-05-13',
  raceDaySeed: 7,
  raceDayEdgeCases: 'all',
  raceDayAt: '14:00',
};
const timeline = (): DayMessage[] =>
  dayTimeline(
    generateDay({ date: '2026-05-13', seed: 7, meetings: 'auto', edgeCases: parseEdgeCasesOption('all') }),
  );

async function allEvents(base: string, token = TOKENS.alluser) {
  const page = await get<EventPageBody>(base, `${EVENTS_PATH}?lastEventId=0&limit=10000`, token);
  return page.body.data?.events ?? [];
}

const advance = (base: string, ms: number) => postJson(base, '/_sim/clock/advance', { ms });

describe('the JSON simulator playing a race day', () => {
  it('stores the day already due as history at once, eventIds ascending with their times', async () => {
    const startedAt = Date.now();
    const s = await startSim(DAY, { clock: new ManualClock(startedAt) });
    const events = await allEvents(s.base);
    const due = timeline().filter(
      (m) => deliveryOf(m) === 'durable' && m.at <= localInstant('2026-05-13', 14 * 60),
    );
    expect(events.map((e) => [e.channel, e.trackId, e.raceNr, e.startNr])).toEqual(
      due.map((m) => [jsonEvent(m).channel, m.trackId, m.raceNr, m.startNr]),
    );
    expect(events.map((e) => e.payload)).toEqual(due.map((m) => m.payload));
    // created_at: when each would have been sent on this clock, in the past, ascending.
    const created = events.map((e) => Date.parse(e.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(created.at(-1)!).toBeLessThanOrEqual(Date.now());
    const shift = startedAt - localInstant('2026-05-13', 14 * 60);
    expect(Math.abs(created[0]! - (due[0]!.at + shift))).toBeLessThan(Date.now() - startedAt + 1000);
    expect(events.map((e) => e.eventId)).toEqual(events.map((_, i) => i + 1));
  });

  it('journals what it plays with source race-day, and shows the day in the state', async () => {
    const s = await startSim(DAY);
    const journal = (
      await get<{ entries: Array<{ source: string }> }>(s.base, '/_sim/journal?kind=received&limit=5')
    ).body;
    expect(journal.entries.map((e) => e.source)).toEqual(Array(5).fill('race-day'));
    const state = (await get<{ raceDay: Record<string, unknown> }>(s.base, '/_sim/state')).body;
    expect(state.raceDay).toMatchObject({ on: true, date: '2026-05-13', seed: 7, speed: 1 });
  });

  it('plays the rest on its clock: an advance sends the countdowns live and stores the results', async () => {
    // A clock of its own: the day moves only when the test advances it, however busy the machine.
    const s = await startSim(DAY, { clock: new ManualClock(Date.now()) });
    const client = await connectAuthenticated(s.wsUrl, TOKENS.alluser);
    const before = (await allEvents(s.base)).length;
    expect((await advance(s.base, 40 * 60_000)).status).toBe(200);
    const data = await client.next((m) => m.type === 'Data');
    expect(data.data!.channel).toMatch(
      /^(TimeToStart|TimeToDef|SplitTimes|Last500Meters|PrelDisqualifiedHorses)(Trot|Gallop)$/,
    );
    const from = localInstant('2026-05-13', 14 * 60);
    const expected = timeline().filter((m) => m.at > from && m.at <= from + 40 * 60_000);
    const stored = (await allEvents(s.base)).slice(before);
    expect(stored.map((e) => e.channel)).toEqual(
      expected.filter((m) => deliveryOf(m) === 'durable').map((m) => jsonEvent(m).channel),
    );
    expect(stored.some((e) => e.channel.startsWith('Result'))).toBe(true);
  });

  it('POST /_sim/race-day restarts with another day, DELETE stops it', async () => {
    const s = await startSim();
    expect((await get(s.base, '/_sim/race-day')).status).toBe(404);
    const started = await postJson<{ date: string; edgeCases: unknown[]; play: { speed: number } }>(
      s.base,
      '/_sim/race-day',
      {
        date: '2026-07-05',
        edgeCases: ['dead-heat', 'late-scratching'],
        speed: 60,
        at: '12:00',
      },
    );
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ date: '2026-07-05', play: { speed: 60 } });
    expect(started.body.edgeCases.map((e) => (e as { id: string }).id).sort()).toEqual([
      'dead-heat',
      'late-scratching',
    ]);
    expect((await allEvents(s.base)).every((e) => e.date === '2026-07-05')).toBe(true);
    const stopped = await fetch(`${s.base}/_sim/race-day`, { method: 'DELETE' });
    expect(await stopped.json()).toEqual({ stopped: true });
    const count = (await allEvents(s.base)).length;
    await advance(s.base, 3_600_000);
    expect((await allEvents(s.base)).length).toBe(count);
  });

  it.each([
    [
      { edgeCases: 'dead-heat,photo-fnish' },
      /edgeCases: unknown edge case "photo-fnish"; known: late-scratching, /,
    ],
    [{ date: '2026-02-30' }, /date: expected today or a real date/],
    [{ meetings: 'trot:9' }, /meetings: trot meetings must be a whole number from 0 to 4/],
    [{ speed: 0 }, /speed: expected a number above 0 and at most 3600/],
    [{ speed: 3601 }, /speed: expected a number above 0 and at most 3600/],
    [{ edgeCases: 'dead-heat@999:1' }, /no meeting at track 999/],
    [{ colour: 'red' }, /unknown race-day key "colour"/],
    ['today', /race-day body must be a JSON object/],
  ])('refuses %j with a 400 saying why, and the day plays on as it was', async (body, message) => {
    const s = await startSim(DAY);
    const before = (await get<{ seed: number; play: { startedAt: string } }>(s.base, '/_sim/race-day')).body;
    const refused = await postJson<{ message: string }>(s.base, '/_sim/race-day', body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(message);
    const after = (await get<{ seed: number; play: { startedAt: string } }>(s.base, '/_sim/race-day')).body;
    expect(after.play.startedAt).toBe(before.play.startedAt);
  });

  it('a bad race-day setting stops the start, naming its variable', async () => {
    const error: unknown = await startSim({ ...DAY, raceDayEdgeCases: 'nose-bleed' }).catch(
      (err: unknown) => err,
    );
    expect(isSimError(error) && error.code).toBe('RACE_DAY_INVALID');
    expect((error as Error).message).toMatch(
      /^RACE_DAY_EDGE_CASES \(--race-day-edge-cases\): unknown edge case "nose-bleed"/,
    );
  });

  it('with STRICT_PAYLOADS, POST /api/message refuses a payload that breaks its schema, naming the path', async () => {
    const good = timeline().find((m) => m.channel === 'Result')!;
    const event = jsonEvent(good);
    const broken = {
      ...event,
      payload: {
        ...event.payload,
        placings: [{ ...(event.payload.placings as object[])[0], place: 'first' }],
        raceNo: 1,
      },
    };
    const strict = await startSim({ strictPayloads: true });
    expect((await postJson(strict.base, MESSAGE_PATH, event)).status).toBe(201);
    const refused = await postJson<{ status: string; message: string }>(strict.base, MESSAGE_PATH, broken);
    expect(refused.status).toBe(400);
    expect(refused.body.status).toBe('fail');
    expect(refused.body.message).toContain(`payload breaks the ${event.channel} schema`);
    expect(refused.body.message).toContain('$.payload.placings[0].place must be integer, not string');
    expect(refused.body.message).toContain('$.payload.raceNo is not a field of this payload');
    expect((await allEvents(strict.base)).length).toBe(1);
    // Off by default: the vendor's simulator takes any payload.
    const loose = await startSim();
    expect((await postJson(loose.base, MESSAGE_PATH, broken)).status).toBe(201);
  });

  it('leaves out the channels a CHANNELS_FILE catalog lacks', async () => {
    const catalog = ChannelCatalog.fromJSON(
      { durable: ['ResultTrot'], transient: ['TimeToStartTrot'] },
      'test',
    );
    const users = UserTable.fromJSON(
      [
        {
          key: 'only',
          secret: 's',
          token: 'b25seQ==',
          name: 'only',
          channels: ['ResultTrot', 'TimeToStartTrot'],
        },
      ],
      catalog,
      'test',
    );
    const s = await startSim(DAY, { catalog, users });
    const state = (await get<{ store: { events: number } }>(s.base, '/_sim/state')).body;
    const due = timeline().filter(
      (m) => m.channel === 'Result' && m.sport === 'trot' && m.at <= localInstant('2026-05-13', 14 * 60),
    );
    expect(state.store.events).toBe(due.length);
    expect((await advance(s.base, 30 * 60_000)).status).toBe(200);
  });
});
