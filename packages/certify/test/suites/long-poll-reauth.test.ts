/**
 * reauth-after-401 on virtual time: which authentication counts as the answer to the 401. A quick
 * client authenticates, polls and meets the expiry within a few ms of its start, so its first
 * authentication lies within the clock tolerance of the 401 and must not be taken for a second.
 */
import { eventsKind } from '../../src/suites/events/events-kind';
import type { LongPollKind } from '../../src/suites/long-poll/poll-kind';
import { reauthScenario } from '../../src/suites/long-poll/reauth-scenario';
import type { TrafficOf } from '../../src/types';
import { authRequest, FakeContext } from './fake-context';

type Poll = Omit<TrafficOf<'request'>, 'at' | 'endedAt'>;

function poll(last: number, status: number, ids: readonly number[] = []): Poll {
  return {
    kind: 'request',
    method: 'GET',
    path: '/customerapi/events',
    query: { lastEventId: String(last) },
    auth: 'bearer',
    status,
    ...(status === 200 && { answered: { messages: ids.length, eventIds: ids, hasMore: false } }),
  };
}

/** The events kind with publishing counted here: the fake's control calls return no eventId. */
function countingKind(): LongPollKind {
  let eventId = 0;
  return {
    ...eventsKind,
    publish: async (ctx) => {
      eventId += 1;
      return { at: ctx.now(), eventId, label: `event ${eventId}` };
    },
  };
}

/** Authenticates at its start and receives event 1 within 15 ms; its next poll meets the expiry. */
function quickClient(): FakeContext {
  return new FakeContext()
    .after(0, authRequest())
    .after(10, poll(0, 200, [1]))
    .after(20, poll(1, 401));
}

describe('reauth-after-401 (virtual time)', () => {
  it('does not take the authentication made at the start for one made after the 401', async () => {
    const fake = quickClient();
    for (let second = 1; second <= 6; second += 1) fake.after(20 + second * 1000, poll(1, 401));
    const [result] = await reauthScenario(countingKind()).run(fake.context());
    expect(fake.calls).toEqual(['expireTokens']);
    expect(result).toMatchObject({
      id: 'reauth-after-401',
      status: 'fail',
      summary: expect.stringMatching(/^did not authenticate again within 5 s of the 401; \d+ more poll/),
    });
  });

  it('passes an authentication after the 401 followed by a poll from the same lastEventId', async () => {
    const fake = quickClient()
      .after(30, authRequest())
      .after(40, poll(1, 200, [2, 3]));
    const [result] = await reauthScenario(countingKind()).run(fake.context());
    expect(result).toMatchObject({
      status: 'pass',
      summary: expect.stringMatching(
        /^authenticated again \d+ ms after the 401 and resumed from lastEventId=1$/,
      ),
    });
  });
});
