import { startSimulators, type RunningSimulators } from 'racedata-sim';
import { JsonEventStream, type StreamData } from '../src/json-event-stream';
import { JsonEventsPoller, type RaceEvent } from '../src/json-events-poller';
import { LegacyListener } from '../src/legacy-listener';
import { LegacyStomp, type TrackSignal } from '../src/legacy-stomp';

/**
 * The race-data consumer of this example against both simulators, in-process on free ports. Each
 * test makes the simulator misbehave the way production does and checks the consumer copes: the
 * cases real integrations get wrong.
 */

let sims: RunningSimulators<true, true>;
const stops: Array<() => Promise<void>> = [];

beforeEach(async () => {
  // Short long polls keep an idle loop turning; nothing here waits for one to time out.
  sims = await startSimulators({ settings: { longPollTimeoutMs: 1000 } });
});

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await sims.close();
});

/** A back-off the test observes instead of sitting through. */
function recordedWaits(): { waits: number[]; wait: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, wait: async (ms) => void waits.push(ms) };
}

/** Collects items; `done` resolves once `predicate` holds for what was collected. */
function until<T>(
  items: T[],
  predicate: (items: T[]) => boolean,
): { push: (item: T) => void; done: Promise<void> } {
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolve = r));
  return {
    push: (item) => {
      items.push(item);
      if (predicate(items)) resolve();
    },
    done,
  };
}

const raceDay = (n: number) => ({
  channel: 'RaceDayTrot',
  date: new Date().toISOString().slice(0, 10),
  trackId: 5,
  payload: { n },
});

describe('JSON consumer', () => {
  test('resumes from lastEventId after a 503 with Retry-After: nothing lost, nothing twice', async () => {
    const seen: number[] = [];
    const { waits, wait } = recordedWaits();
    const collected = until<number>(seen, (s) => s.length === 3);
    const poller = new JsonEventsPoller({
      baseUrl: sims.jsonUrl,
      key: 'testuser',
      secret: 'testpassword',
      wait,
      onEvents: (events: readonly RaceEvent[]) => {
        for (const e of events) collected.push((e.payload as { n: number }).n);
      },
    });
    await sims.json.post(raceDay(1));
    await sims.json.addFault({
      match: { transport: 'events' },
      action: { type: 'status', status: 503, retryAfter: 3 },
      times: 2,
    });
    poller.start();
    stops.push(() => poller.stop());
    await sims.json.post(raceDay(2));
    await sims.json.post(raceDay(3));
    await collected.done;
    await poller.stop();
    expect(seen).toEqual([1, 2, 3]);
    expect(waits).toEqual([3000, 3000]);
    expect(poller.stats.retries).toBe(2);
    expect(poller.lastEventId).toBe(3);
  });

  test('authenticates again after a 401 on an expired token', async () => {
    const seen: number[] = [];
    let collected = until<number>(seen, (s) => s.length === 2);
    const poller = new JsonEventsPoller({
      baseUrl: sims.jsonUrl,
      key: 'testuser',
      secret: 'testpassword',
      onEvents: (events) => {
        for (const e of events) collected.push((e.payload as { n: number }).n);
      },
    });
    poller.start();
    stops.push(() => poller.stop());
    await sims.json.post(raceDay(1));
    await sims.json.waitFor({ transport: 'events', user: 'testuser' });
    await sims.json.expireTokens('testuser');
    // A poll held since before the expiry still answers; the next request gets the 401.
    await sims.json.post(raceDay(2));
    await collected.done;
    collected = until<number>(seen, (s) => s.length === 3);
    await sims.json.post(raceDay(3));
    await collected.done;
    expect(seen).toEqual([1, 2, 3]);
    expect(poller.stats.reauthentications).toBe(1);
  });

  test('reconnects and authenticates again after the server closes the event stream; nothing is replayed', async () => {
    const data: StreamData[] = [];
    const received = until<StreamData>(data, (d) => d.length === 1);
    const stream = new JsonEventStream({
      baseUrl: sims.jsonUrl,
      key: 'testuser',
      secret: 'testpassword',
      onData: (d) => received.push(d),
    });
    const first = stream.authenticated();
    stream.start();
    stops.push(() => stream.stop());
    await first;
    const again = stream.authenticated();
    expect(await sims.json.closeConnections({ user: 'testuser', code: 4000 })).toBe(1);
    await sims.json.post({ channel: 'TimeToStartTrot', date: raceDay(0).date, payload: { missed: true } });
    await again;
    await sims.json.post({ channel: 'TimeToStartTrot', date: raceDay(0).date, payload: { after: true } });
    await received.done;
    expect(stream.stats.closes).toEqual([4000]);
    expect(stream.stats.connections).toBe(2);
    // The message sent while the consumer was away is gone, as the interface says.
    expect(data.map((d) => d.payload)).toEqual([{ after: true }]);
  });
});

describe('legacy consumer', () => {
  test('no message is lost when the listen loop is killed mid-poll', async () => {
    const first = new LegacyListener({
      baseUrl: sims.legacyUrl,
      key: 'testuser',
      secret: 'testpassword',
      onXml: () => {
        throw new Error('the killed loop must not get the message');
      },
    });
    first.start();
    // The poll is held by the simulator: then the process "dies" with it in flight.
    for (;;) {
      const state = await sims.legacy.state();
      if (state.users.testuser?.heldPolls === 1) break;
    }
    await first.stop();
    await sims.legacy.inject('<Result race="3"/>', { payloadKey: 'race-3' });

    const xml: string[] = [];
    const collected = until<string>(xml, (x) => x.length === 1);
    const second = new LegacyListener({
      baseUrl: sims.legacyUrl,
      key: 'testuser',
      secret: 'testpassword',
      onXml: (doc) => collected.push(doc),
    });
    second.start();
    stops.push(() => second.stop());
    await collected.done;
    expect(xml).toEqual(['<Result race="3"/>']);
  });

  test('STOMP: reconnects with a fresh token after the server closes the session', async () => {
    const signals: TrackSignal[] = [];
    let arrived = until<TrackSignal>(signals, (s) => s.length === 1);
    const stomp = new LegacyStomp({
      baseUrl: sims.legacyUrl,
      key: 'testuser',
      secret: 'testpassword',
      onSignal: (s) => arrived.push(s),
    });
    const first = stomp.connected();
    stomp.start();
    stops.push(() => stomp.stop());
    await first;
    await sims.legacy.inject('<TimeToStart minutes="5"/>', { durable: false, payloadKey: 'k1' });
    await arrived.done;
    arrived = until<TrackSignal>(signals, (s) => s.length === 2);
    const again = stomp.connected();
    await sims.legacy.expireTokens('testuser');
    await sims.legacy.closeConnections({ user: 'testuser', code: 4001 });
    await again; // the old token was refused; beforeConnect authenticated again
    await sims.legacy.inject('<TimeToStart minutes="4"/>', { durable: false, payloadKey: 'k2' });
    await arrived.done;
    expect(signals.map((s) => s.payloadKey)).toEqual(['k1', 'k2']);
    expect(stomp.stats.connections).toBe(2);
  });
});
