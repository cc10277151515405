/** The checks only the events suite has (the shared ones are in ../long-poll/check-info.ts). */
import type { CheckInfo } from '../../types';
import { LONG_POLL_LIMITS as L } from '../long-poll/limits';

export const BACKLOG_COMPLETE: CheckInfo = {
  id: 'backlog-complete',
  required: true,
  rule:
    'with at least three pages of events waiting, follows hasMore (the next page asked for within ' +
    `${L.hasMoreWithinMs} ms, from the page's last eventId) and fetches every event once, without a gap`,
  source:
    'interface 2.6: hasMore is "True when the server holds more events to return; call again with the last ' +
    'eventId"; 4.3 rules 1 and 5',
};

export const FOLLOWS_LAST_EVENT_ID: CheckInfo = {
  id: 'follows-last-event-id',
  required: true,
  rule: 'every GET /customerapi/events carries lastEventId = the highest eventId already delivered to it',
  source:
    'interface 2.5: "the client remembers the last one received and sends it as lastEventId in the next request"',
};
