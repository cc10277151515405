/** gives-up-on-stalled-poll as docs/certify.md lists it (its own file: check-info.ts holds the first checks). */
import type { CheckInfo } from '../../types';
import type { LongPollSuite } from './check-info';

/** Added to two long-poll limits: time for a timeout of the client's own and its next request. */
export const STALL_MARGIN_MS = 5_000;

export function givesUpOnStalledPoll(suite: LongPollSuite): CheckInfo {
  const route = suite === 'events' ? 'GET /customerapi/events' : 'GET /customerapi/channels/listen';
  const resume = suite === 'events' ? ', with the same lastEventId' : '';
  return {
    id: 'gives-up-on-stalled-poll',
    required: true,
    rule:
      `when a ${route} is never answered (no 204 at the limit, no byte), gives up on it after a timeout derived ` +
      `from the long-poll limit (RACEDATA_LONG_POLL_MS) and polls again within two limits plus ${STALL_MARGIN_MS / 1000} s ` +
      `of its start${resume}`,
    source:
      suite === 'events'
        ? 'interface 4.3 rule 4 and 7.3: the server answers 204 when the time limit elapses, so a poll with no answer ' +
          'past it is lost; rule 1: "Passing a previously received eventId returns the events after it"'
        : 'interface 4.2 and 7.2: "204 ... Timeout waiting; make a new request", so a listen with no answer past ' +
          'the limit is lost; messages stay queued (4.2)',
  };
}
