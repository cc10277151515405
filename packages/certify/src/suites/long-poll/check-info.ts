/**
 * The long-poll checks as docs/certify.md lists them: what the client must do and the rule of the
 * interface (docs: shared spec race-data-interface.md, by section) it comes from. The events and
 * listen suites share the ids and differ in the route and the sections cited.
 */
import type { CheckInfo } from '../../types';
import { LONG_POLL_LIMITS as L } from './limits';

export type LongPollSuite = 'events' | 'listen';

const ROUTE: Record<LongPollSuite, string> = {
  events: 'GET /customerapi/events',
  listen: 'GET /customerapi/channels/listen',
};

/** The section describing the route's 200 and 204. */
const ROUTE_SECTION: Record<LongPollSuite, string> = { events: '4.3', listen: '4.2' };

export function authKeySecret(suite: LongPollSuite): CheckInfo {
  const how =
    suite === 'events'
      ? 'POST /customerapi/authenticate/subscription'
      : 'POST /customerapi/authenticate/subscription (or POST /authenticate with Basic)';
  return {
    id: 'auth-key-secret',
    required: true,
    rule: `authenticates with its key and secret (${how}) and sends Authorization: Bearer on ${ROUTE[suite]}`,
    source:
      'interface 5.1-5.3: "Authenticate with 4.1 using the key and secret ... Send the token on every request ' +
      'that needs authentication as Authorization: Bearer <ACCESS_TOKEN>"',
  };
}

export function repollAfter200(suite: LongPollSuite): CheckInfo {
  return {
    id: 'repoll-after-200',
    required: true,
    rule: `after an answer with data, the next ${ROUTE[suite]} starts within ${L.repollWithinMs / 1000} s`,
    source:
      suite === 'listen'
        ? 'interface 4.2: "The client stores it and immediately sends a new request"'
        : 'interface 4.3 rule 4: the server holds the request until new data arrives (long polling), ' +
          'and 2.5: the client "sends it as lastEventId in the next request"',
  };
}

export function repollAfter204(suite: LongPollSuite): CheckInfo {
  return {
    id: 'repoll-after-204',
    required: true,
    rule: `after a 204, the next ${ROUTE[suite]} starts within ${L.repollWithinMs / 1000} s (no sleeping)`,
    source: `interface ${ROUTE_SECTION[suite]}: "204 ... The client immediately sends a new request"`,
  };
}

export function reauthAfter401(suite: LongPollSuite): CheckInfo {
  const resume =
    suite === 'events' ? 'resumes from the same lastEventId' : 'polls again and gets the queued message';
  return {
    id: 'reauth-after-401',
    required: true,
    rule:
      `after its token is expired (401), authenticates again within ${L.reauthWithinMs / 1000} s ` +
      `and ${resume}`,
    source: 'interface 5.4: "After expiry a request gets 401 and the client must authenticate again"',
  };
}

export function backoffOn5xx(suite: LongPollSuite): CheckInfo {
  return {
    id: 'backoff-on-5xx',
    required: true,
    rule:
      `during a run of ${L.backoffRun} 503 answers with Retry-After: ${L.retryAfterSeconds}, waits what it says, ` +
      `sends at most ${L.backoffMaxPerSecond} requests a second, then resumes with nothing skipped`,
    source:
      `interface ${suite === 'events' ? '7.3' : '7.2'} (500: unexpected error) and 8 ("Rate limits: not shown"); ` +
      "Retry-After is HTTP's own (RFC 9110 section 10.2.3)",
  };
}

export function recoverAfterReset(suite: LongPollSuite): CheckInfo {
  return {
    id: 'recover-after-reset',
    required: true,
    rule: `after its connection is reset mid-poll, polls again within ${L.recoverWithinMs / 1000} s, nothing skipped`,
    source:
      suite === 'events'
        ? 'interface 4.3 rule 1: "Passing a previously received eventId returns the events after it"'
        : 'interface 4.2: "Messages missed while disconnected are queued ... until the client reconnects"',
  };
}

export function noHotLoop(suite: LongPollSuite): CheckInfo {
  return {
    id: 'no-hot-loop',
    required: true,
    rule: `never more than ${L.hotLoopMaxPerSecond} requests in any one second of the run`,
    source:
      `interface ${ROUTE_SECTION[suite]}: the server holds the request open until there is data (long polling), ` +
      'so a client needs few requests; 8: "Rate limits: not shown"',
  };
}
