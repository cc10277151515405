/**
 * tolerates-unknown on the events suite: events production might send next year, each followed
 * by a normal event the client must fetch (and, with --echo stdout, print).
 */
import { randomBytes } from 'node:crypto';
import type { Evidence, ScenarioContext } from '../../types';
import { UNKNOWN_CHANNELS } from '../../server/certify-simulator';
import { LONG_POLL_LIMITS as L } from '../long-poll/limits';
import { requestEvidence } from '../long-poll/requests';
import { unknownScenario, type Sent, type UnknownCase } from '../unknown/cases';
import {
  largePayload,
  NEAR_LIMIT_BYTES,
  resultWithUnknownFields,
  startListWithNames,
  UNKNOWN_EVENT_FIELDS,
  winOdds,
} from '../unknown/next-year';
import { EVENTS_PATH, eventsKind, postEvent } from './events-kind';

interface Page {
  data?: { events?: Array<Record<string, unknown>>; [field: string]: unknown };
  [field: string]: unknown;
}

function isMarked(event: Record<string, unknown>, marker: string): boolean {
  return (event['payload'] as Record<string, unknown> | undefined)?.['certifyCase'] === marker;
}

async function post(ctx: ScenarioContext, message: Record<string, unknown>, what: string): Promise<Sent> {
  const at = ctx.now();
  const date = new Date(at).toISOString().slice(0, 10);
  const { eventId } = await ctx.control.postJson({ date, trackId: 901, ...message });
  const bytes = Buffer.byteLength(JSON.stringify(message['payload']));
  return { evidence: [note(at, `certify posted event ${eventId ?? '?'}: ${what} (payload ${bytes} bytes)`)] };
}

function note(at: number, what: string): Evidence {
  return { at: new Date(at).toISOString(), what };
}

const CASES: readonly UnknownCase[] = [
  {
    name: 'an event with fields it does not know (in the event, its page and its payload)',
    async send(ctx) {
      const marker = `certify-fields-${randomBytes(4).toString('hex')}`;
      const undo = ctx.frontDoor.changeAnswers({
        path: EVENTS_PATH,
        test: (body) => ((body as Page).data?.events ?? []).some((event) => isMarked(event, marker)),
        change: (body) => {
          const page = body as Page;
          const events = (page.data?.events ?? []).map((event) =>
            isMarked(event, marker) ? { ...event, ...UNKNOWN_EVENT_FIELDS } : event,
          );
          return { ...page, data: { ...page.data, events, serverTime: new Date().toISOString() } };
        },
      });
      const sent = await post(
        ctx,
        { channel: 'ResultTrot', raceNr: 3, payload: resultWithUnknownFields(3, marker) },
        `unknown fields ${Object.keys(UNKNOWN_EVENT_FIELDS).join(', ')} in the event, serverTime in its page, and more in its payload`,
      );
      return { ...sent, undo };
    },
  },
  {
    name: 'an event on a channel it does not know',
    send: (ctx) =>
      post(
        ctx,
        { channel: UNKNOWN_CHANNELS.jsonDurable, raceNr: 3, payload: winOdds(3) },
        `on ${UNKNOWN_CHANNELS.jsonDurable}, a channel of no catalog it knows`,
      ),
  },
  {
    name: 'names in non-ASCII letters',
    send: (ctx) =>
      post(
        ctx,
        { channel: 'StartListTrot', raceNr: 2, payload: startListWithNames(2) },
        'a start list with names such as Åskväder Öst, Ærlig Ørn, Ζέφυρος and 青空ダッシュ',
      ),
  },
  {
    name: 'a payload near the size limit',
    send: (ctx) =>
      post(
        ctx,
        { channel: 'RaceDayTrot', payload: largePayload(NEAR_LIMIT_BYTES) },
        `a programme of ${NEAR_LIMIT_BYTES} bytes, 90 % of the largest message the simulator takes`,
      ),
  },
];

export const unknownEventsScenario = unknownScenario({
  suite: 'events',
  cases: CASES,
  numericKeys: true,
  describe: (normal) => `event ${normal.key}`,
  async start(ctx) {
    return {
      async sendNormal() {
        const posted = await postEvent(ctx);
        return {
          key: String(posted.eventId),
          at: posted.at,
          evidence: note(posted.at, `certify posted event ${posted.eventId}, a normal one`),
        };
      },
      async reached(normal) {
        const page = await eventsKind.awaitDelivery(
          ctx,
          { at: normal.at, eventId: Number(normal.key), label: `event ${normal.key}` },
          L.deliveryTimeoutMs,
        );
        if (page) return { evidence: requestEvidence(page) };
        return { missed: `was never fetched within ${L.deliveryTimeoutMs / 1000} s: it stopped polling` };
      },
      finish: async () => undefined,
    };
  },
});
