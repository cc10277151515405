/**
 * survives-edge-cases on each suite: how the day's messages go out on its transport (posted to
 * the JSON simulator, or injected into the legacy one with the day's own document), and the
 * normal messages each suite's tolerates-unknown already sends after every case.
 */
import { randomBytes } from 'node:crypto';
import { jsonChannelOf, jsonEvent, legacyXml, payloadKeyOf, type DayMessage } from '@racedata/race-day';
import type { ScenarioContext } from '../../types';
import { startEventsRun } from '../events/unknown-scenario';
import { startListenRun } from '../listen/unknown-scenario';
import { startStompRun } from '../stomp/unknown';
import type { StreamWitness } from '../stream/witness';
import { startStreamRun } from '../stream/unknown';
import { edgeCasesScenario } from './scenario';

const CHECK = 'survives-edge-cases';
/** How long certify's own event-stream session may take to see a message sent. */
const WITNESS_WAIT_MS = 2_000;

const about = (m: DayMessage) =>
  `${m.trackId}:${m.raceNr ?? '-'}${typeof m.payload['revision'] === 'number' ? ` revision ${m.payload['revision']}` : ''}`;

/**
 * The day's payloadKey (channel, date, track, race, start) with a nonce: a day sends a race's
 * countdown ticks and revisions under one key, and the client is to print each message.
 */
const keyOf = (m: DayMessage) => `${payloadKeyOf(m)}-certify-${randomBytes(3).toString('hex')}`;

export const edgeCasesEventsScenario = edgeCasesScenario({
  suite: 'events',
  delivery: 'durable',
  numericKeys: true,
  describe: (normal) => `event ${normal.key}`,
  open: async (ctx) => ({ run: await startEventsRun(ctx), send: postDayEvent }),
});

async function postDayEvent(ctx: ScenarioContext, m: DayMessage) {
  const { eventId } = await ctx.control.postJson({ ...jsonEvent(m) });
  return {
    ...(eventId !== undefined && { key: String(eventId) }),
    what: `event ${eventId ?? '?'} on ${jsonChannelOf(m)} (${about(m)})`,
  };
}

export const edgeCasesListenScenario = edgeCasesScenario({
  suite: 'listen',
  delivery: 'durable',
  describe: (normal) => `payloadKey ${normal.key}`,
  open: async (ctx) => ({ run: await startListenRun(ctx), send: queueDayDocument }),
});

async function queueDayDocument(ctx: ScenarioContext, m: DayMessage) {
  const key = keyOf(m);
  const xml = legacyXml(m);
  await ctx.control.inject(m.channel, true, xml, key);
  // The document holds no payloadKey, so the client cannot print it: the normal one after it,
  // taken off the same queue, shows it was taken and the client went on.
  return { what: `queued ${m.channel} (${about(m)}, ${Buffer.byteLength(xml)} bytes, payloadKey ${key})` };
}

export const edgeCasesStreamScenario = edgeCasesScenario({
  suite: 'stream',
  delivery: 'transient',
  describe: (normal) => (normal.key === '' ? 'a Data message' : `Data ${normal.key}`),
  async open(ctx) {
    let witness: StreamWitness | undefined;
    const run = await startStreamRun(ctx, CHECK, (opened) => (witness = opened));
    if (typeof run === 'string') return run;
    return { run, send: (_ctx, m) => postDayData(ctx, m, witness) };
  },
});

/** Posts a live message; with certify's own session watching, its Data id is what the client is to print. */
async function postDayData(ctx: ScenarioContext, m: DayMessage, witness: StreamWitness | undefined) {
  const event = jsonEvent(m);
  const mark = witness?.mark() ?? 0;
  await ctx.control.postJson({ ...event });
  const text = JSON.stringify(event.payload);
  const id = await witness?.dataSince(
    mark,
    (data) => data['channel'] === event.channel && JSON.stringify(data['payload']) === text,
    WITNESS_WAIT_MS,
  );
  return {
    ...(id !== undefined && { key: id }),
    what: `${event.channel} (${about(m)})${id === undefined ? '' : `, Data ${id}`}`,
  };
}

export const edgeCasesStompScenario = edgeCasesScenario({
  suite: 'stomp',
  delivery: 'transient',
  describe: (normal) => `payloadKey ${normal.key}`,
  async open(ctx) {
    const run = await startStompRun(ctx, CHECK);
    return typeof run === 'string' ? run : { run, send: sendDayFrame };
  },
});

async function sendDayFrame(ctx: ScenarioContext, m: DayMessage) {
  const key = keyOf(m);
  await ctx.control.inject(m.channel, false, legacyXml(m), key);
  return { key, what: `NonDurable ${m.channel} payloadKey=${key}` };
}
