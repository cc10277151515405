import { ManualClock, type EventInput, type RecordedJsonMessage } from '@racedata/core';
import type { JsonSimulatorProbe } from '@racedata/json-sim';
import { TOKENS } from '@racedata/test-support';
import {
  EVENTS_PATH,
  FAST_SETTINGS,
  FILTERED_PATH,
  closeAll,
  createProbed,
  connectAuthenticated,
  get,
  postMessage,
  startSim,
  waitFor,
} from './helpers';

afterEach(closeAll);

const INTERVAL = 1000;

function recorded(
  index: number,
  delivery: 'durable' | 'transient',
  message: EventInput,
): RecordedJsonMessage {
  return {
    kind: 'json',
    at: Date.UTC(2024, 4, 11, 12) + index * 7000,
    delivery,
    source: `t:${index + 1}`,
    message,
  };
}

const RECORDINGS: RecordedJsonMessage[] = [
  recorded(0, 'durable', {
    channel: 'RaceDayTrot',
    date: '2024-05-11',
    trackId: 5,
    raceNr: 1,
    payload: { seq: 1 },
  }),
  recorded(1, 'transient', {
    channel: 'TimeToStartTrot',
    date: '2024-05-11',
    trackId: 5,
    payload: { seq: 2 },
  }),
  recorded(2, 'durable', { channel: 'ResultGallop', date: '2024-05-11', trackId: 5, payload: { seq: 3 } }),
];

async function replaying(settings: { autoReplayIntervalMs?: number; initialDelayMs?: number } = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
  const s = await startSim(
    { autoReplayIntervalMs: INTERVAL, ...settings },
    { clock, recordings: RECORDINGS },
  );
  return { clock, s };
}

function storedSeqs(probe: JsonSimulatorProbe): number[] {
  const page = probe.store.query({ channels: ['RaceDayTrot', 'ResultGallop'], afterId: 0, limit: 1000 });
  return probe.store.events(page.ids).map((e) => (e.payload as { seq: number }).seq);
}

describe('auto replay (AUTO_REPLAY_MESSAGE_INTERVAL)', () => {
  it('is off without an interval or without recordings', async () => {
    const noInterval = await startSim({}, { recordings: RECORDINGS });
    expect(noInterval.probe.replay).toBeUndefined();
    const noRecordings = await startSim({ autoReplayIntervalMs: 50 }, { recordings: [] });
    expect(noRecordings.probe.replay).toBeUndefined();
  });

  it('starts only once the simulator listens', async () => {
    const clock = new ManualClock();
    const { sim, probe } = createProbed(
      { ...FAST_SETTINGS, autoReplayIntervalMs: INTERVAL },
      { clock, recordings: RECORDINGS },
    );
    expect(probe.replay).toBeDefined();
    clock.advance(10 * INTERVAL);
    expect(probe.store.size).toBe(0);
    await sim.listen(0, '127.0.0.1');
    clock.advance(INTERVAL);
    expect(probe.store.size).toBe(1);
  });

  it('publishes one message per interval, the first after one interval, and loops', async () => {
    const { clock, s } = await replaying();
    clock.advance(INTERVAL - 1);
    expect(s.probe.store.size).toBe(0);
    clock.advance(1);
    expect(s.probe.store.size).toBe(1);
    clock.advance(INTERVAL - 1);
    expect(s.probe.store.size).toBe(1);
    clock.advance(1); // the transient one: not stored
    expect(s.probe.store.size).toBe(1);
    clock.advance(INTERVAL); // ResultGallop
    expect(s.probe.store.size).toBe(2);
    clock.advance(INTERVAL); // loops to the first again
    expect(s.probe.store.size).toBe(3);
    clock.advance(3 * INTERVAL);
    expect(s.probe.store.size).toBe(5);
    expect(storedSeqs(s.probe)).toEqual([1, 3, 1, 3, 1]);
    expect(s.probe.replay?.stats()).toMatchObject({ sent: 7, failed: 0, loops: 2, total: 3 });

    const res = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(res.body.data?.events.map((e) => e.eventId)).toEqual([1, 2, 3, 4, 5]);
    expect(res.body.data?.events[0]).toMatchObject(RECORDINGS[0]?.message as object);
    expect(res.body.data?.events[1]).toMatchObject(RECORDINGS[2]?.message as object);
  });

  it('waits INITIAL_DELAY before the first message, then the interval', async () => {
    const { clock, s } = await replaying({ initialDelayMs: 250 });
    clock.advance(249);
    expect(s.probe.store.size).toBe(0);
    clock.advance(1);
    expect(s.probe.store.size).toBe(1);
    clock.advance(INTERVAL); // transient
    clock.advance(INTERVAL - 1);
    expect(s.probe.store.size).toBe(1);
    clock.advance(1);
    expect(s.probe.store.size).toBe(2);
  });

  it('with INITIAL_DELAY 0 sends the first message at once', async () => {
    const { clock, s } = await replaying({ initialDelayMs: 0 });
    clock.advance(0);
    expect(s.probe.store.size).toBe(1);
  });

  it('sends transient recordings to WebSocket subscribers as Data', async () => {
    const { clock, s } = await replaying();
    const client = await connectAuthenticated(s.wsUrl, TOKENS.testuser);
    clock.advance(2 * INTERVAL);
    const data = await client.next('Data');
    expect(data.data).toEqual({
      channel: 'TimeToStartTrot',
      date: '2024-05-11',
      trackId: 5,
      payload: { seq: 2 },
    });
    expect(s.probe.store.size).toBe(1);
  });

  it('keeps every other endpoint working while it runs', async () => {
    const { clock, s } = await replaying();
    clock.advance(INTERVAL);
    const posted = await postMessage(s.base, {
      channel: 'StartListTrot',
      date: '2026-01-05',
      payload: { mine: 1 },
    });
    expect(posted.status).toBe(201);
    clock.advance(2 * INTERVAL);

    const events = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    expect(events.body.data?.events.map((e) => e.channel)).toEqual([
      'RaceDayTrot',
      'StartListTrot',
      'ResultGallop',
    ]);
    const dflt = await get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.testuser);
    expect(dflt.body.data?.events.map((e) => e.eventId)).toEqual([1, 2]);
    const filtered = await get(s.base, `${FILTERED_PATH}?channel=ResultGallop`, TOKENS.alluser);
    expect(filtered.body.data?.events.map((e) => e.eventId)).toEqual([3]);
    expect((await get(s.base, '/health')).body).toMatchObject({ status: 'ok', simulator: 'json' });
  });

  it('stops on close', async () => {
    const { clock, s } = await replaying();
    clock.advance(INTERVAL);
    await s.sim.close();
    clock.advance(10 * INTERVAL);
    expect(s.probe.store.size).toBe(1);
    expect(s.probe.replay?.stats().sent).toBe(1);
  });

  it('runs on real timers and wakes held long polls', async () => {
    // Started from the control plane once the poll is held: a start timed by initialDelayMs raced
    // the poll on a loaded machine (the first event stored before the poll arrived).
    const s = await startSim({ longPollTimeoutMs: 5000 }, { recordings: RECORDINGS });
    const poll = get(s.base, `${EVENTS_PATH}?lastEventId=0`, TOKENS.alluser);
    await waitFor(() => s.probe.polls.size === 1, 'the poll to be held before the first replay');
    expect(s.probe.store.size).toBe(0);
    const started = await fetch(`${s.base}/_sim/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'start', intervalMs: 30 }),
    });
    expect(started.status).toBe(200);
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.data?.events[0]?.payload).toEqual({ seq: 1 });
    await waitFor(() => s.probe.store.size >= 3, 'three replayed events');
  });
});
