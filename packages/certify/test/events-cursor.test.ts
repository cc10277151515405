import { cursorProblem } from '../src/suites/events/cursor';
import type { RequestEvent } from '../src/suites/long-poll/requests';

const poll = (at: number, endedAt: number, lastEventId: number, eventIds: number[]): RequestEvent => ({
  kind: 'request',
  at,
  endedAt,
  method: 'GET',
  path: '/customerapi/events',
  query: { lastEventId: String(lastEventId) },
  auth: 'bearer',
  status: 200,
  answered: { messages: eventIds.length, eventIds },
});

test('a poll answered within the millisecond it started is not judged against its own answer', () => {
  // Seen under load with a noisy neighbour (issue 30): "sent lastEventId=356 after receiving event 357".
  const before = poll(1000, 1005, 355, [356]);
  const quick = poll(1010, 1010, 356, [357]);
  expect(cursorProblem(quick, [before, quick])).toBeUndefined();
  // A poll that did end before another began still counts, even in the same millisecond.
  const next = poll(1010, 1012, 356, []);
  expect(cursorProblem(next, [before, quick, next])).toBe('sent lastEventId=356 after receiving event 357');
});
