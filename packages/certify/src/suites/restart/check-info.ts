import type { CheckInfo, Suite } from '../../types';
import { BACK_WITHIN_MS, OUTAGE, RETRIES_PER_SECOND } from './outage';

const AWAY = `${(OUTAGE.refusedMs + OUTAGE.closingMs) / 1000} s`;

/** What "back" means on each transport, and what it must not have missed. */
const BACK: Record<Suite, string> = {
  events:
    'polling again, from the lastEventId it had, and fetches every event stored meanwhile (no eventId gap)',
  listen: 'listening again and drains its queue (every message queued meanwhile delivered)',
  stream: 'connected again with an authenticated session',
  stomp: 'connected and subscribed again',
};

const SOURCE: Record<Suite, string> = {
  events:
    'interface 4.3 rule 1: "Passing a previously received eventId returns the events after it"; 2.5 (eventIds ascend)',
  listen:
    'interface 4.2: "Messages missed while disconnected are queued for up to 24 hours or until the client reconnects"',
  stream: 'interface 3: "Disconnect ... The client must reconnect and authenticate again"; 5.5',
  stomp: 'interface 5.5: "after a disconnect the same process repeats"; 3',
};

export function survivesRestart(suite: Suite): CheckInfo {
  return {
    id: 'survives-restart',
    required: true,
    rule:
      `while the simulator is away for ${AWAY} (every connection dropped, new ones refused) neither exits nor ` +
      `gives up, retries at most ${RETRIES_PER_SECOND} times a second, and within ${BACK_WITHIN_MS / 1000} s of ` +
      `its return is ${BACK[suite]}`,
    source: SOURCE[suite],
  };
}
