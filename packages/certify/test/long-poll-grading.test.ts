/**
 * The long-poll checks' grading, on traffic written by hand: the rules each verdict rests on,
 * at their edges, without a client or a clock.
 */
import { TrafficLog } from '../src/server/traffic-log';
import { readBacklog } from '../src/suites/events/backlog';
import { followsLastEventId } from '../src/suites/events/follows-last-event-id';
import { repollAfter204 } from '../src/suites/long-poll/check-info';
import { busiestSecond } from '../src/suites/long-poll/rate';
import { gapsAfter, gradeGaps } from '../src/suites/long-poll/repoll';
import type { RequestEvent } from '../src/suites/long-poll/requests';
import { defineScenario } from '../src/suites/long-poll/scenario-kit';
import type { CheckInfo, ControlCalls, FrontDoor, ScenarioContext } from '../src/types';
import { CERTIFY_TIMINGS } from '../src/timings';

interface Poll {
  readonly at: number;
  readonly ms?: number;
  readonly status?: number | 'aborted';
  readonly last?: number;
  readonly ids?: readonly number[];
  readonly hasMore?: boolean;
}

function poll({ at, ms = 5, status = 200, last, ids, hasMore }: Poll): RequestEvent {
  return {
    kind: 'request',
    at,
    endedAt: at + ms,
    method: 'GET',
    path: '/customerapi/events',
    query: last === undefined ? {} : { lastEventId: String(last) },
    auth: 'bearer',
    status,
    ...(status === 200 && {
      answered: { messages: ids?.length ?? 0, eventIds: ids ?? [], hasMore: hasMore ?? false },
    }),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('follows-last-event-id', () => {
  const grade = (polls: RequestEvent[]) => followsLastEventId.grade(polls, []);

  it('does not take a poll answered in the millisecond it started for one sent after its own answer', () => {
    const result = grade([
      poll({ at: 0, last: 0, ids: [1] }),
      poll({ at: 10, ms: 0, last: 1, ids: [2] }),
      poll({ at: 10, last: 2, ms: 2000, status: 204 }),
    ]);
    expect(result).toMatchObject({ status: 'pass' });
  });

  it('passes when every poll after a delivery carries the highest eventId delivered before it', () => {
    const result = grade([
      poll({ at: 0, last: 0, ids: [1, 2] }),
      poll({ at: 10, last: 2, ms: 2000, status: 204 }),
      poll({ at: 2020, last: 2, ids: [3] }),
      poll({ at: 2030, last: 3, status: 'aborted' }),
      poll({ at: 2600, last: 3, ids: [4] }),
    ]);
    expect(result).toMatchObject({ status: 'pass', summary: expect.stringMatching(/^each of 4 polls/) });
  });

  it('fails a poll that goes back to 0 after a 204, naming what it sent and what it had', () => {
    const result = grade([
      poll({ at: 0, last: 0, ids: [1, 2] }),
      poll({ at: 10, last: 2, ms: 2000, status: 204 }),
      poll({ at: 2020, last: 0, ids: [1, 2] }),
    ]);
    expect(result).toMatchObject({ status: 'fail', summary: 'sent lastEventId=0 after receiving event 2' });
    expect(result.evidence.map((e) => e.what)).toContain(
      'GET /customerapi/events?lastEventId=0 [bearer] -> 200 [events 1..2] (5 ms): sent lastEventId=0 after receiving event 2',
    );
  });

  it('fails a poll without lastEventId once something was delivered, and skips when nothing was', () => {
    expect(grade([poll({ at: 0, last: 0, ids: [5] }), poll({ at: 10 })]).summary).toBe(
      'sent no lastEventId after receiving event 5',
    );
    expect(grade([poll({ at: 0, ms: 2000, status: 204 })]).status).toBe('skip');
  });
});

describe('backlog-complete reading', () => {
  const backlog = range(2, 301);

  it('finds nothing wrong in pages that follow hasMore from the last eventId at once', () => {
    const polls = [
      poll({ at: 0, last: 1, ids: range(2, 101), hasMore: true }),
      poll({ at: 6, last: 101, ids: range(102, 201), hasMore: true }),
      poll({ at: 12, last: 201, ids: range(202, 301) }),
    ];
    expect(readBacklog(backlog, polls)).toMatchObject({ missing: [], reread: [], unfollowed: undefined });
    expect(readBacklog(backlog, polls).pages).toHaveLength(3);
  });

  it('names a pause past the limit after a page that said hasMore', () => {
    const polls = [
      poll({ at: 0, last: 1, ids: range(2, 101), hasMore: true }),
      poll({ at: 506, last: 101, ids: range(102, 201), hasMore: true }),
    ];
    expect(readBacklog(backlog, polls).unfollowed?.why).toBe(
      'waited 501 ms after a page that said hasMore (limit 500 ms)',
    );
    const inTime = [
      poll({ at: 0, last: 1, ids: range(2, 101), hasMore: true }),
      poll({ at: 505, last: 101 }),
    ];
    expect(readBacklog(backlog, inTime).unfollowed).toBeUndefined();
  });

  it('names a gap, a re-read and a wrong lastEventId', () => {
    const polls = [
      poll({ at: 0, last: 1, ids: range(2, 101), hasMore: true }),
      poll({ at: 6, last: 51, ids: range(52, 151), hasMore: true }),
      poll({ at: 12, last: 151, ids: range(152, 251) }),
    ];
    const reading = readBacklog(backlog, polls);
    expect(reading.missing).toEqual(range(252, 301));
    expect(reading.reread).toEqual(range(52, 101));
    expect(reading.unfollowed?.why).toBe('asked with lastEventId=51 after a page ending at 101');
  });

  it('never takes a poll that started before a page for the one that followed it', () => {
    // Pages answered in a few ms each: the poll before this page started within the tolerance.
    const polls = [
      poll({ at: 0, ms: 3, last: 1, ids: range(2, 101), hasMore: true }),
      poll({ at: 4, ms: 3, last: 101, ids: range(102, 201), hasMore: true }),
      poll({ at: 8, ms: 3, last: 201, ids: range(202, 301) }),
    ];
    expect(readBacklog(backlog, polls).unfollowed).toBeUndefined();
  });
});

describe('repoll gaps', () => {
  const info = repollAfter204('events');

  it('passes a poll within the limit, fails one past it, and skips when there was no answer', () => {
    const noContent = poll({ at: 0, ms: 2000, status: 204 });
    const soon = gradeGaps(info, gapsAfter([noContent], [noContent, poll({ at: 3000 })]), 'a 204', 'none');
    expect(soon).toMatchObject({
      status: 'pass',
      summary: expect.stringMatching(/^polled again within 1000 ms/),
    });
    const late = gradeGaps(info, gapsAfter([noContent], [noContent, poll({ at: 3001 })]), 'a 204', 'none');
    expect(late).toMatchObject({
      status: 'fail',
      summary: 'waited 1001 ms after a 204 before polling again (limit 1000 ms)',
    });
    const never = gradeGaps(info, gapsAfter([noContent], [noContent]), 'a 204', 'none');
    expect(never.status).toBe('fail');
    expect(gradeGaps(info, [], 'a 204', 'no 204 seen')).toMatchObject({
      status: 'skip',
      summary: 'no 204 seen',
    });
  });
});

describe('busiest second', () => {
  it('counts requests that started within one second of each other', () => {
    const burst = range(0, 20).map((i) => poll({ at: 1000 + i * 49 }));
    expect(busiestSecond(burst).count).toBe(21);
    const paced = range(0, 20).map((i) => poll({ at: i * 50 }));
    expect(busiestSecond(paced).count).toBe(20);
    expect(busiestSecond([]).count).toBe(0);
  });
});

describe('a long-poll scenario', () => {
  const info: CheckInfo = { id: 'some-check', required: true, rule: 'r', source: 's' };
  const refused = () => Promise.reject(new Error('POST /_sim/faults answered 500'));
  const control: ControlCalls = {
    postJson: refused,
    inject: refused,
    addFault: refused,
    deleteFault: refused,
    faultFired: refused,
    expireTokens: refused,
    closeConnections: refused,
    journal: refused,
  };

  const unusedFrontDoor: FrontDoor = {
    silence: () => [],
    inject: () => 0,
    changeFrames: () => () => undefined,
    changeAnswers: () => () => undefined,
    outage: () => Promise.reject(new Error('no outage here')),
  };

  function context(signal: AbortSignal): ScenarioContext {
    return {
      suite: 'events',
      base: 'http://127.0.0.1:1',
      wsBase: 'ws://127.0.0.1:1',
      user: { key: 'k', secret: 's' },
      timings: CERTIFY_TIMINGS,
      traffic: new TrafficLog(),
      control,
      frontDoor: unusedFrontDoor,
      now: () => 0,
      wait: () => Promise.resolve(true),
      echo: false,
      signal,
    };
  }

  it('fails its checks with the message of a control call that failed, rather than throwing', async () => {
    const scenario = defineScenario('plays', [info], async (ctx) => {
      await ctx.control.addFault({});
      return [];
    });
    const results = await scenario.run(context(new AbortController().signal));
    expect(results).toEqual([
      expect.objectContaining({
        status: 'fail',
        summary: 'certify could not play "plays": POST /_sim/faults answered 500',
      }),
    ]);
  });

  it('turns a failure it reached because the run was stopped into a skip saying so', async () => {
    const stop = new AbortController();
    const scenario = defineScenario('plays', [info], async () => {
      stop.abort();
      return [{ id: info.id, status: 'fail', required: true, summary: 'no poll came', evidence: [] }];
    });
    const [result] = await scenario.run(context(stop.signal));
    expect(result).toMatchObject({
      status: 'skip',
      summary: 'the run was stopped before this check was decided',
    });
  });
});
