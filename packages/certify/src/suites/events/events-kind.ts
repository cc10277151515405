/** The JSON long poll, GET /customerapi/events, as the shared long-poll scenarios see it. */
import type { ScenarioContext } from '../../types';
import type { LongPollKind, Published } from '../long-poll/poll-kind';
import { nextClientRequest, noteEvidence, type RequestEvent } from '../long-poll/requests';
import { cursorProblem } from './cursor';

export const EVENTS_PATH = '/customerapi/events';

/** A durable channel of every built-in JSON user's subscription. */
const CHANNEL = 'RaceDayTrot';

export function isEventsPoll(event: RequestEvent): boolean {
  return event.method === 'GET' && /^\/customerapi\/events\/?$/i.test(event.path);
}

export async function postEvent(ctx: ScenarioContext): Promise<Published> {
  const at = ctx.now();
  const date = new Date(at).toISOString().slice(0, 10);
  const { eventId } = await ctx.control.postJson({ channel: CHANNEL, date, payload: { certify: true } });
  if (eventId === undefined) throw new Error(`POST /api/message on ${CHANNEL} returned no eventId`);
  return { at, eventId, label: `event ${eventId}` };
}

export function delivers(event: RequestEvent, eventId: number): boolean {
  return isEventsPoll(event) && event.status === 200 && (event.answered?.eventIds ?? []).includes(eventId);
}

export const eventsKind: LongPollKind = {
  suite: 'events',
  routeName: `GET ${EVENTS_PATH}`,
  faultTransport: 'events',
  isPoll: isEventsPoll,
  publish: postEvent,
  awaitDelivery(ctx, message, timeoutMs) {
    const { eventId } = message;
    if (eventId === undefined) return Promise.resolve(undefined);
    return nextClientRequest(ctx, (event) => delivers(event, eventId), timeoutMs);
  },
  resumeProblem: (poll, before) => cursorProblem(poll, before),
  publishedEvidence: (message) =>
    noteEvidence(message.at, `certify posted ${message.label} (POST /api/message)`),
};
