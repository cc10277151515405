import { startSimulators, type RunningSimulators } from 'racedata-sim';

let sims: RunningSimulators;

beforeAll(async () => {
  // A generated day, both simulators on it: 2026-05-13 from 09:00, no surprises but our own.
  sims = await startSimulators({
    settings: { raceDay: '2026-05-13', raceDayAt: '09:00', raceDayEdgeCases: 'none' },
  });
});
afterAll(() => sims.close());

interface StartListEvent {
  eventId: number;
  channel: string;
  trackId: number;
  raceNr?: number;
  payload: { starters: Array<{ horse: string; postPosition: number; status: string }> };
}

/** What a consumer shows for a race: the latest start list's horses in post position order. */
async function shownStartList(trackId: number, raceNr: number): Promise<string[]> {
  const { token } = sims.users.json.find((u) => u.key === 'alluser')!; // every channel
  const events: StartListEvent[] = [];
  let page: { data: { events: StartListEvent[]; hasMore: boolean } };
  do {
    const res = await fetch(`${sims.jsonUrl}/customerapi/events?lastEventId=${events.at(-1)?.eventId ?? 0}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    page = (await res.json()) as typeof page;
    events.push(...page.data.events);
  } while (page.data.hasMore);
  const lists = events.filter(
    (e) => e.channel === 'StartListTrot' && e.trackId === trackId && e.raceNr === raceNr,
  );
  const latest = lists.at(-1)!.payload.starters.filter((s) => s.status !== 'scratched');
  return latest.sort((a, b) => a.postPosition - b.postPosition).map((s) => s.horse);
}

test('a horse scratched just before the start disappears from what the consumer shows', async () => {
  const plan = await sims.control.raceDay.plan();
  const meeting = plan.json.meetings.find((m) => m.sport === 'trot')!;
  const race = meeting.races[0]!;
  const horse = race.starters[1]!; // post position 2

  // Thirty seconds before the start: everything until then has been delivered, in order.
  await sims.control.raceDay.goto({
    trackId: meeting.trackId,
    raceNr: race.raceNr,
    phase: 'start',
    offsetMs: -30_000,
  });
  const scratched = await sims.control.raceDay.scratch({
    trackId: meeting.trackId,
    raceNr: race.raceNr,
    startNr: horse.startNr,
  });
  expect(scratched.json.emitted.map((m) => m.channel)).toEqual(['ScratchingsTrot', 'StartListTrot']);
  expect(scratched.json.phase).toBe('countdown');

  const shown = await shownStartList(meeting.trackId, race.raceNr);
  expect(shown).not.toContain(horse.horse);
  expect(shown[1]).toBe(race.starters[2]!.horse); // the next horse moved in to post 2

  // The race has started: a scratching is refused and changes nothing.
  await sims.control.raceDay.goto({ trackId: meeting.trackId, raceNr: race.raceNr, phase: 'running' });
  await expect(
    sims.control.raceDay.scratch({ trackId: meeting.trackId, raceNr: race.raceNr, startNr: 1 }),
  ).rejects.toMatchObject({ status: 409, code: 'RACE_DAY_PHASE' });
});
