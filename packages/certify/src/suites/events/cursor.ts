/**
 * The events cursor as the interface defines it (2.5: "the client remembers the last one
 * received and sends it as lastEventId in the next request"), read from the traffic.
 */
import type { RequestEvent } from '../long-poll/requests';

/** The highest eventId answered to the client by polls that ended at or before `at`. */
export function highestDelivered(polls: readonly RequestEvent[], at: number): number | undefined {
  let highest: number | undefined;
  for (const poll of polls) {
    if (poll.status !== 200 || poll.endedAt > at) continue;
    for (const id of poll.answered?.eventIds ?? []) if (highest === undefined || id > highest) highest = id;
  }
  return highest;
}

/** The lastEventId a poll carried, as sent (undefined when it had none). */
export function sentLastEventId(poll: RequestEvent): string | undefined {
  return poll.query['lastEventId'];
}

/**
 * Why `poll` does not carry the highest eventId delivered before it started, or undefined when
 * it does (or nothing was delivered yet, when any starting point is the client's choice).
 */
export function cursorProblem(poll: RequestEvent, earlier: readonly RequestEvent[]): string | undefined {
  // Not the poll itself: answered within the millisecond it started, it "ended before it began".
  const highest = highestDelivered(
    earlier.filter((other) => other !== poll),
    poll.at,
  );
  if (highest === undefined) return undefined;
  const sent = sentLastEventId(poll);
  if (sent === undefined) return `sent no lastEventId after receiving event ${highest}`;
  if (Number(sent) !== highest) return `sent lastEventId=${sent} after receiving event ${highest}`;
  return undefined;
}
