/**
 * Reading the client's HTTP requests out of the traffic: which of them are its own (not the
 * certify server's control calls and message posts), how one reads in a report, and how to wait
 * for the next one that matters.
 */
import type { Evidence, ScenarioContext, TrafficOf } from '../../types';

export type RequestEvent = TrafficOf<'request'>;

/**
 * Paths the certify server itself calls while it plays a scenario: the control plane, the JSON
 * simulator's message post and the legacy injection. Everything else over HTTP is the client.
 */
const CERTIFY_OWN = [
  /^\/_sim(\/|$)/i,
  /^\/api\/message\/?$/i,
  /^\/customerapi\/channel\/[^/]+\/(non)?durable\/?$/i,
];

export function isClientRequest(event: RequestEvent): boolean {
  return !CERTIFY_OWN.some((pattern) => pattern.test(event.path));
}

/** The paths a client authenticates on: the production one, and legacy's shortened Basic one. */
export function isAuthentication(event: RequestEvent): boolean {
  return (
    event.method === 'POST' &&
    /^\/(customerapi\/authenticate\/subscription|authenticate)\/?$/i.test(event.path)
  );
}

/** Whether the request was cut before an answer (a reset, or the client leaving). */
export function wasCut(event: RequestEvent): boolean {
  return event.status === 'aborted';
}

export function queryString(event: RequestEvent): string {
  const pairs = Object.entries(event.query).map(([key, value]) => `${key}=${value}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

function answeredText(event: RequestEvent): string {
  const answered = event.answered;
  if (!answered) return '';
  const ids = answered.eventIds;
  if (ids.length === 0) return ` (${answered.messages} message${answered.messages === 1 ? '' : 's'})`;
  const range = ids.length === 1 ? `${ids[0]}` : `${ids[0]}..${ids[ids.length - 1]}`;
  return ` [events ${range}]${answered.hasMore ? ' hasMore' : ''}`;
}

/** `GET /customerapi/events?lastEventId=12 -> 200 [events 13..20] (31 ms)`, at its start. */
export function requestEvidence(event: RequestEvent, note?: string): Evidence {
  const status = event.status === 'aborted' ? 'cut (no answer)' : String(event.status);
  const auth = event.auth === 'none' ? '' : ` [${event.auth}]`;
  const what =
    `${event.method} ${event.path}${queryString(event)}${auth} -> ${status}${answeredText(event)}` +
    ` (${event.endedAt - event.at} ms)${note ? `: ${note}` : ''}`;
  return { at: new Date(event.at).toISOString(), what };
}

/** A note of what certify itself did, for the evidence list. */
export function noteEvidence(at: number, what: string): Evidence {
  return { at: new Date(at).toISOString(), what };
}

/** The client's requests so far (or since `since`, by start), in the order they started. */
export function clientRequests(ctx: ScenarioContext, since?: number): RequestEvent[] {
  return ctx.traffic
    .of('request', since)
    .filter(isClientRequest)
    .slice()
    .sort((a, b) => a.at - b.at);
}

/**
 * The first client request, already seen or still to come, that passes `test`; undefined after
 * `timeoutMs`. Traffic records a request when it ends, so one still held is not seen until then.
 */
export function nextClientRequest(
  ctx: ScenarioContext,
  test: (event: RequestEvent) => boolean,
  timeoutMs: number,
  since = 0,
): Promise<RequestEvent | undefined> {
  return ctx.traffic.next('request', (event) => isClientRequest(event) && test(event), { timeoutMs, since });
}

/**
 * The request that followed `answer`: the next one the client started (the list is in start
 * order). A client long-polls one request at a time, so that is the one it sent once the answer
 * was in. Start times alone decide it: the recorder stamps an answer's end when its socket reports
 * it, which a busy certify process can do after the client already sent the next request.
 */
export function followerOf(
  requests: readonly RequestEvent[],
  answer: RequestEvent,
): RequestEvent | undefined {
  const index = requests.indexOf(answer);
  const later = index < 0 ? requests.filter((event) => event.at > answer.at) : requests.slice(index + 1);
  return later[0];
}
