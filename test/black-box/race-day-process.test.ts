/**
 * A race day as its consumers meet it: `racedata-sim all` in its own process playing a day, and
 * real clients on all four transports (JSON long poll, event stream, legacy listen, STOMP). Both
 * simulators play the same messages at the same times, the ones the model says, history first.
 */
import Ajv2020 from 'ajv/dist/2020';
import {
  dayTimeline,
  deliveryOf,
  generateDay,
  jsonEvent,
  legacyXml,
  localInstant,
  parseEdgeCasesOption,
  payloadKeyOf,
  type DayMessage,
} from '@racedata/race-day';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimPairProcess } from '@racedata/test-support/sim-process';
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
const ANCHOR = localInstant(DATE, 13 * 60 + 30);
const WINDOW_MS = 12 * 60_000;
const day = dayTimeline(
  generateDay({ date: DATE, seed: 3, meetings: 'auto', edgeCases: parseEdgeCasesOption('default') }),
);

/** Where `received` sits in `expected`: it must be a run of it (clients join a moment after start). */
function runOf<T>(expected: readonly T[], received: readonly T[], key: (x: T) => string): number {
  const keys = expected.map(key);
  const start = keys.indexOf(key(received[0]!));
  expect(start).toBeGreaterThanOrEqual(0);
  expect(received.map(key)).toEqual(keys.slice(start, start + received.length));
  return start;
}

const advance = (base: string, ms: number) =>
  fetch(`${base}/_sim/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });

test('both simulators of one process play the day to real clients on all four transports, history first', async () => {
  const sims = await startSimPairProcess(
    ['--race-day', DATE, '--race-day-seed', '3', '--race-day-at', '13:30'],
    { LONG_POLL_TIMEOUT_MS: '1000' },
  );
  const stream = await streamClient(sims.json.wsBase, TOKENS.alluser);
  const stomp = await stompClient(sims.legacy.wsBase, TOKENS.testuser);

  // History: everything durable due at 13:30, stored with eventIds and created_at ascending.
  const history = await readEvents(sims.json.base, TOKENS.alluser);
  const dueDurable = day.filter((m) => deliveryOf(m) === 'durable' && m.at <= ANCHOR);
  expect(history.slice(0, dueDurable.length).map((e) => [e.channel, e.raceNr, e.startNr])).toEqual(
    dueDurable.map((m) => [jsonEvent(m).channel, m.raceNr, m.startNr]),
  );
  expect(history.map((e) => e.eventId)).toEqual(history.map((_, i) => i + 1));
  const created = history.map((e) => Date.parse(e.created_at));
  expect(created).toEqual([...created].sort((a, b) => a - b));
  const legacyQueued = legacyPoller(sims.legacy.base, TOKENS.testuser);
  const jsonLater = jsonPoller(sims.json.base, TOKENS.alluser, history.at(-1)!.eventId);
  await until('legacy history', () => legacyQueued.documents, dueDurable.length);
  expect(legacyQueued.documents.slice(0, dueDurable.length)).toEqual(dueDurable.map(legacyXml));

  // The next twelve minutes of the day, on both clocks.
  expect((await advance(sims.json.base, WINDOW_MS)).status).toBe(200);
  expect((await advance(sims.legacy.base, WINDOW_MS)).status).toBe(200);
  const window = day.filter((m) => m.at > ANCHOR + 2_000 && m.at <= ANCHOR + WINDOW_MS);
  const live = window.filter((m) => deliveryOf(m) === 'transient');
  const stored = window.filter((m) => deliveryOf(m) === 'durable');
  expect(live.length).toBeGreaterThan(500);
  expect(stored.some((m) => m.channel === 'Result')).toBe(true);
  await until('event-stream Data', () => stream.data, live.length);
  await until('STOMP messages', () => stomp.messages, live.length);
  await until('JSON long poll', () => jsonLater.events, stored.length);
  await until('legacy long poll', () => legacyQueued.documents, dueDurable.length + stored.length);

  const liveDay = day.filter((m) => deliveryOf(m) === 'transient' && m.at > ANCHOR - 60_000);
  const jsonKey = (x: { channel: string; trackId?: number; raceNr?: number; payload: unknown }) =>
    JSON.stringify([x.channel, x.trackId, x.raceNr, x.payload]);
  const streamAt = runOf(liveDay.map(jsonEvent), stream.data, jsonKey);
  const stompAt = runOf(
    liveDay.map((m) => ({ channel: m.channel, payloadKey: payloadKeyOf(m), payload: legacyXml(m) })),
    stomp.messages,
    (x) => `${x.channel}|${x.payloadKey}|${x.payload}`,
  );
  // The same messages at the same times on both: where the two runs overlap, message for message.
  const from = Math.max(streamAt, stompAt);
  const to = Math.min(streamAt + stream.data.length, stompAt + stomp.messages.length);
  expect(to - from).toBeGreaterThan(500);
  const overlap: DayMessage[] = liveDay.slice(from, to);
  expect(stream.data.slice(from - streamAt, to - streamAt).map(jsonKey)).toEqual(
    overlap.map((m) => jsonKey(jsonEvent(m))),
  );
  expect(stomp.messages.slice(from - stompAt, to - stompAt).map((x) => x.payload)).toEqual(
    overlap.map(legacyXml),
  );

  const jsonStored = jsonLater.events.slice(0, stored.length);
  expect(jsonStored.map((e: JsonEvent) => jsonKey(e))).toEqual(stored.map((m) => jsonKey(jsonEvent(m))));
  expect(legacyQueued.documents.slice(dueDurable.length, dueDurable.length + stored.length)).toEqual(
    stored.map(legacyXml),
  );

  // Every JSON payload received holds against the schema the simulator serves for its channel.
  const ajv = new Ajv2020({ strict: false });
  const schemas = new Map<string, ReturnType<typeof ajv.compile>>();
  for (const e of [...history, ...jsonLater.events, ...stream.data]) {
    let validate = schemas.get(e.channel);
    if (!validate) {
      const schema = (await (await fetch(`${sims.json.base}/_sim/schemas/${e.channel}`)).json()) as object;
      validate = ajv.compile(schema);
      schemas.set(e.channel, validate);
    }
    if (!validate(e.payload)) throw new Error(`${e.channel}: ${ajv.errorsText(validate.errors)}`);
  }
}, 60_000);
