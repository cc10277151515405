/**
 * Steering a race day from outside: `racedata-sim all` in its own process, actions and go-tos
 * posted over HTTP as curl would, and real consumers on all four transports (JSON long poll,
 * event stream, legacy listen, STOMP). Each action's messages reach every transport, the same
 * ones in the same order, and are the ones its answer lists; what follows follows from it.
 */
import {
  countdownFrom,
  generateDay,
  legacyXml,
  localMinutesOf,
  parseEdgeCasesOption,
  type DayChannel,
  type DayMessage,
} from '@racedata/race-day';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimPairProcess, startSimProcess } from '@racedata/test-support/sim-process';
import {
  jsonPoller,
  legacyPoller,
  readEvents,
  stompClient,
  streamClient,
  until,
  type JsonEvent,
} from './race-day-clients';

afterEach(closeAll);

const DATE = '2026-05-13';
const SEED = 3;
const plan = generateDay({
  date: DATE,
  seed: SEED,
  meetings: 'auto',
  edgeCases: parseEdgeCasesOption('none'),
});
const trot = plan.meetings.filter((m) => m.sport === 'trot');
const [first, second] = [trot[0]!, trot[1] ?? plan.meetings.find((m) => m !== trot[0])!];
const race = first.races[0]!;
/** The day starts a few minutes before the first trot race's parade countdown. */
const minutes = Math.floor(localMinutesOf(countdownFrom(race)) - 3);
const AT = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const DAY_ARGS = ['--race-day', DATE, '--race-day-seed', String(SEED), '--race-day-edge-cases', 'none'];

interface Emitted {
  channel: string;
  legacyChannel: DayChannel;
  delivery: 'durable' | 'transient';
  date: string;
  trackId: number;
  raceNr?: number;
  startNr?: number;
  payload: Record<string, unknown>;
}

interface Answer {
  status: number;
  body: {
    code?: string;
    message?: string;
    phase?: string;
    emitted?: Emitted[];
    allowed?: string[];
    target?: string;
  };
}

async function post(base: string, route: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}/_sim/race-day/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** The legacy XML document of an emitted message, as the model renders it. */
const xmlOf = (e: Emitted): string =>
  legacyXml({
    at: 0,
    channel: e.legacyChannel,
    sport: e.channel.endsWith('Gallop') ? 'gallop' : 'trot',
    date: e.date,
    trackId: e.trackId,
    ...(e.raceNr !== undefined && { raceNr: e.raceNr }),
    ...(e.startNr !== undefined && { startNr: e.startNr }),
    payload: e.payload,
  } as DayMessage);

const jsonKey = (x: {
  channel: string;
  trackId?: number;
  raceNr?: number;
  startNr?: number;
  payload: unknown;
}) => JSON.stringify([x.channel, x.trackId, x.raceNr, x.startNr ?? null, x.payload]);

/** Resolves once `received()` holds `run` one after the other; fails at its own deadline with what it saw. */
async function untilRun(
  what: string,
  received: () => readonly string[],
  run: readonly string[],
  ms = 15_000,
) {
  const deadline = Date.now() + ms;
  const holds = () => {
    const got = received();
    for (let i = 0; i + run.length <= got.length; i++) {
      if (run.every((x, j) => got[i + j] === x)) return true;
    }
    return false;
  };
  while (!holds()) {
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: no run of the ${run.length} messages the action listed within ${ms} ms; got ${received().length} after the action: ${received().slice(0, 5).join('\n').slice(0, 2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Received {
  action?: string;
  source: string;
  channel: string;
}

async function journalOf(base: string, channel?: string): Promise<Received[]> {
  const query = channel === undefined ? '' : `&channel=${channel}`;
  const page = (await (await fetch(`${base}/_sim/journal?kind=received&limit=10000${query}`)).json()) as {
    entries: Received[];
  };
  return page.entries;
}

test('actions and go-tos reach real consumers on all four transports, each exactly as its answer lists', async () => {
  const sims = await startSimPairProcess([...DAY_ARGS, '--race-day-at', AT], {
    LONG_POLL_TIMEOUT_MS: '1000',
  });
  const history = await readEvents(sims.json.base, TOKENS.alluser);
  const events = jsonPoller(sims.json.base, TOKENS.alluser, history.at(-1)?.eventId ?? 0);
  const listen = legacyPoller(sims.legacy.base, TOKENS.testuser);
  const stream = await streamClient(sims.json.wsBase, TOKENS.alluser);
  const stomp = await stompClient(sims.legacy.wsBase, TOKENS.testuser);
  const ref = { trackId: first.trackId, raceNr: race.raceNr };
  // Each simulator keeps its own clock: a go-to on each keeps them in step.
  const goto = async (body: object) => {
    const json = await post(sims.json.base, 'goto', { ...ref, ...body });
    const legacy = await post(sims.legacy.base, 'goto', { ...ref, ...body });
    expect([json.status, legacy.status]).toEqual([200, 200]);
    expect(legacy.body.target).toBe(json.body.target);
    return json.body;
  };
  /** Where each consumer stands now: an action's messages come after. */
  const mark = () => ({
    events: events.events.length,
    listen: listen.documents.length,
    stream: stream.data.length,
    stomp: stomp.messages.length,
  });
  /** Each consumer got the action's messages after `from`, one after the other, as listed. */
  const expectDelivered = async (from: ReturnType<typeof mark>, emitted: Emitted[]) => {
    const durable = emitted.filter((e) => e.delivery === 'durable');
    const transient = emitted.filter((e) => e.delivery === 'transient');
    await untilRun('JSON /events', () => events.events.slice(from.events).map(jsonKey), durable.map(jsonKey));
    // Stored, so /filtered-events for the race they are about ends with them, in the same order.
    for (const channel of new Set(durable.map((e) => e.channel))) {
      const own = durable.filter((e) => e.channel === channel);
      const { date, trackId, raceNr } = own[0]!;
      const query =
        `channel=${channel}&startDate=${date}&endDate=${date}&limit=10000&trackId=${trackId}` +
        (raceNr === undefined ? '' : `&raceNr=${raceNr}`);
      const res = await fetch(`${sims.json.base}/customerapi/filtered-events?${query}`, {
        headers: { authorization: `Bearer ${TOKENS.alluser}` },
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: { events: JsonEvent[] } };
      expect(page.data.events.slice(-own.length).map(jsonKey)).toEqual(own.map(jsonKey));
    }
    await untilRun('legacy listen', () => listen.documents.slice(from.listen), durable.map(xmlOf));
    await untilRun('event stream', () => stream.data.slice(from.stream).map(jsonKey), transient.map(jsonKey));
    await untilRun(
      'STOMP',
      () => stomp.messages.slice(from.stomp).map((m) => m.payload),
      transient.map(xmlOf),
    );
  };
  const act = async (base: string, body: object) => {
    const from = mark();
    const answer = await post(base, 'actions', body);
    expect(answer.status).toBe(200);
    await expectDelivered(from, answer.body.emitted!);
    // Journalled on both simulators with source race-day and the action's name, one entry a message.
    const name = (body as { action: string }).action;
    for (const [base, channel] of [
      [sims.json.base, (e: Emitted) => e.channel],
      [sims.legacy.base, (e: Emitted) => e.legacyChannel],
    ] as const) {
      for (const c of new Set(answer.body.emitted!.map(channel))) {
        const entries = await journalOf(base, c);
        expect(entries.filter((e) => e.action === name).map((e) => e.source)).toEqual(
          answer.body.emitted!.filter((e) => channel(e) === c).map(() => 'race-day'),
        );
      }
    }
    return answer.body;
  };

  // Thirty seconds before the start: the countdown runs; a scratching and a delay are allowed.
  // The day plays on in real time: what the countdown says later is bounded by the time this
  // test saw pass since it asked for this moment, so a slow machine moves both alike.
  const askedAt = performance.now();
  const before = await goto({ phase: 'start', offsetMs: -30_000 });
  expect(before).toMatchObject({ phase: 'countdown' });
  expect(before.allowed).toEqual(expect.arrayContaining(['scratch', 'delay-start', 'false-start']));
  expect(before.allowed).not.toContain('dead-heat');

  const scratched = race.starters[1]!.startNr;
  const scratch = await act(sims.json.base, { action: 'scratch', ...ref, startNr: scratched });
  expect(scratch.phase).toBe('countdown');
  expect(scratch.emitted!.map((e) => e.channel)).toEqual(['ScratchingsTrot', 'StartListTrot']);
  // The plan lists what each race and meeting allows now, the same list the action answered.
  const planNow = (await (await fetch(`${sims.json.base}/_sim/race-day`)).json()) as {
    meetings: { trackId: number; allowed: string[]; races: { raceNr: number; allowed: string[] }[] }[];
  };
  const meetingNow = planNow.meetings.find((m) => m.trackId === first.trackId)!;
  expect(meetingNow.races.find((r) => r.raceNr === race.raceNr)!.allowed).toEqual(scratch.allowed);
  expect(meetingNow.allowed).toEqual(
    scratch.allowed!.filter((a) => ['cancel-meeting', 'abandon-meeting', 'postpone-meeting'].includes(a)),
  );

  // The delay is taken on the legacy simulator: the shared day moves on both.
  const delay = await act(sims.legacy.base, { action: 'delay-start', ...ref, minutes: 3 });
  const [tick] = delay.emitted!;
  expect(delay.emitted).toHaveLength(1);
  expect(tick).toMatchObject({ channel: 'TimeToStartTrot', delivery: 'transient' });
  const passed = (performance.now() - askedAt) / 1000;
  expect(tick!.payload.secondsToStart).toBeLessThanOrEqual(3 * 60 + 30);
  expect(tick!.payload.secondsToStart).toBeGreaterThanOrEqual(Math.floor(3 * 60 + 30 - passed) - 1);

  // Forbidden by the phase: 409 naming it and what is allowed; nothing sent.
  const early = await post(sims.json.base, 'actions', { action: 'dead-heat', ...ref, startNrs: [1, 3] });
  expect(early.status).toBe(409);
  expect(early.body.message).toMatch(/is countdown; dead-heat is allowed once the race has finished/);
  const unpublished = await post(sims.json.base, 'actions', {
    action: 'correct-result',
    ...ref,
    placings: [{ startNr: 1, place: 1 }],
  });
  expect(unpublished.status).toBe(409);
  expect(unpublished.body.message).toMatch(/correct-result is allowed once the result is published/);

  // To the finish: every split on the way leaves the scratched horse out.
  const finished = await goto({ phase: 'finish', offsetMs: 1_000 });
  expect(finished.phase).toBe('finished');
  const splits = stream.data.filter((d) => d.channel === 'SplitTimesTrot' && d.trackId === ref.trackId);
  expect(splits.length).toBeGreaterThan(0);
  for (const s of splits) {
    const positions = s.payload.positions as Array<{ startNr: number }>;
    expect(positions.map((p) => p.startNr)).not.toContain(scratched);
  }

  const runners = race.starters.map((s) => s.startNr).filter((n) => n !== scratched);
  const heat = await act(sims.json.base, { action: 'dead-heat', ...ref, startNrs: runners.slice(0, 2) });
  expect(heat.phase).toBe('finished');

  // The result comes after the judges' photo: the two share a place, the scratched horse is gone.
  await goto({ phase: 'result', offsetMs: 1_000 });
  await until('the result', () => events.events.filter((e) => e.channel === 'ResultTrot'), 1);
  const result = events.events.find((e) => e.channel === 'ResultTrot' && e.raceNr === ref.raceNr)!;
  const placings = result.payload.placings as Array<{ startNr: number; place: number }>;
  expect(result.payload).toMatchObject({ deadHeat: true, photoFinish: true });
  const shared = placings.filter((p) => runners.slice(0, 2).includes(p.startNr)).map((p) => p.place);
  expect(shared[0]).toBe(shared[1]);
  expect(placings.map((p) => p.startNr)).not.toContain(scratched);

  // A corrected result: the first two swapped.
  const ordered = [...placings].sort((a, b) => a.place - b.place || a.startNr - b.startNr);
  const swapped = ordered.map((p) => ({ startNr: p.startNr, place: p.place }));
  const lead = swapped.findIndex((p) => p.place !== swapped[0]!.place);
  swapped[lead] = { startNr: swapped[lead]!.startNr, place: 1 };
  for (let i = 0; i < lead; i++) swapped[i] = { startNr: swapped[i]!.startNr, place: 2 };
  const corrected = await act(sims.json.base, { action: 'correct-result', ...ref, placings: swapped });
  expect(corrected.emitted!.map((e) => e.channel)).toEqual(['ResultTrot']);
  expect(corrected.emitted![0]!.payload).toMatchObject({ status: 'corrected', revision: 2 });
  const unknownStart = await post(sims.json.base, 'actions', {
    action: 'correct-result',
    ...ref,
    placings: [{ startNr: 1, place: 1 }],
  });
  expect(unknownStart.status).toBe(400);
  expect(unknownStart.body.code).toBe('RACE_DAY_INVALID');

  // Backwards is refused: the day cannot be unplayed.
  const back = await post(sims.json.base, 'goto', { ...ref, phase: 'parade' });
  expect(back.status).toBe(409);
  expect(back.body.message).toMatch(/regenerate the day/);

  // Another meeting, not started: called off whole, its programme revision on every transport.
  const cancel = await act(sims.json.base, { action: 'cancel-meeting', trackId: second.trackId });
  expect(cancel.emitted!.map((e) => e.legacyChannel)).toEqual(['RaceDay']);
  expect(cancel.emitted![0]!.payload).toMatchObject({ status: 'cancelled' });
  const again = await post(sims.json.base, 'actions', { action: 'cancel-meeting', trackId: second.trackId });
  expect(again.status).toBe(409);
}, 90_000);

test('refusals change nothing: unknown action, race or start, bad arguments, no day playing', async () => {
  const sim = await startSimProcess('json', []);
  const none = await post(sim.base, 'actions', {
    action: 'scratch',
    trackId: first.trackId,
    raceNr: 1,
    startNr: 1,
  });
  expect(none).toMatchObject({ status: 400, body: { code: 'RACE_DAY_NOT_PLAYING' } });
  await fetch(`${sim.base}/_sim/race-day`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date: DATE, seed: SEED, edgeCases: 'none', at: AT }),
  });
  const planBefore = await (await fetch(`${sim.base}/_sim/race-day`)).json();
  const stateBefore = (await (await fetch(`${sim.base}/_sim/state`)).json()) as { store: { events: number } };
  const ref = { trackId: first.trackId, raceNr: race.raceNr };
  const refused: Array<[object, number, RegExp]> = [
    [{ action: 'teleport', ...ref }, 400, /unknown action "teleport"; actions: scratch, change-driver/],
    [{ action: 'scratch', trackId: 1, raceNr: 1, startNr: 1 }, 400, /no meeting at track 1 .*; meetings: /],
    [{ action: 'scratch', ...ref, raceNr: 40, startNr: 1 }, 400, /has no race 40; its races are 1-/],
    [{ action: 'scratch', ...ref, startNr: 42 }, 400, /has no start 42; its starts: 1, 2/],
    [{ action: 'scratch', ...ref, startNr: '3' }, 400, /"startNr" must be a whole number/],
    [
      { action: 'delay-start', ...ref, minutes: 0 },
      400,
      /"minutes" must be a number more than 0 and at most 180/,
    ],
    [{ action: 'delay-start', ...ref, minutes: 181 }, 400, /at most 180/],
    [
      { action: 'postpone-meeting', trackId: ref.trackId, toDate: '2026-02-30' },
      400,
      /"toDate" must be a real date/,
    ],
    [
      { action: 'postpone-meeting', trackId: ref.trackId, toDate: '2026-05-01' },
      400,
      /must be after 2026-05-13/,
    ],
    [{ action: 'dead-heat', ...ref, startNrs: [1] }, 400, /two or more start numbers/],
    [{ action: 'scratch', ...ref, startNr: 1, colour: 'red' }, 400, /scratch takes no "colour"/],
    [{ action: 'finish-now', ...ref }, 409, /is scheduled; finish-now is allowed while counting down/],
    [{ action: 'abandon-meeting', trackId: ref.trackId }, 409, /has not started/],
  ];
  for (const [body, status, message] of refused) {
    const answer = await post(sim.base, 'actions', body);
    expect({ body, status: answer.status, message: answer.body.message }).toEqual({
      body,
      status,
      message: expect.stringMatching(message),
    });
  }
  const malformed = await fetch(`${sim.base}/_sim/race-day/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"action": ',
  });
  expect(malformed.status).toBe(400);
  // The plan is as it was and nothing was stored: the day's time moved on, nothing else.
  const planAfter = (await (await fetch(`${sim.base}/_sim/race-day`)).json()) as { meetings: unknown };
  expect(planAfter.meetings).toEqual((planBefore as { meetings: unknown }).meetings);
  const stateAfter = (await (await fetch(`${sim.base}/_sim/state`)).json()) as { store: { events: number } };
  expect(stateAfter.store.events).toBe(stateBefore.store.events);
  expect((await journalOf(sim.base)).filter((e) => e.action !== undefined)).toEqual([]);
}, 60_000);
