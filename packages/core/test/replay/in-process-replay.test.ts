import { ManualClock } from '../../src/clock';
import { createInProcessReplay, inProcessReplaySchedule } from '../../src/replay';
import type { RecordedJsonMessage } from '../../src/replay';

const off = {
  autoReplayIntervalMs: undefined,
  initialDelayMs: undefined,
  maxDelayMs: undefined,
  replayRebaseDates: false,
};

function message(second: number): RecordedJsonMessage {
  return {
    kind: 'json',
    at: Date.UTC(2024, 4, 11, 10, 0, second),
    delivery: 'durable',
    source: `day.jsonl:${second}`,
    message: { channel: 'RaceDayTrot', date: '2024-05-11', payload: { second } },
  };
}

describe('inProcessReplaySchedule', () => {
  it('is off without an interval or a max delay', () => {
    expect(inProcessReplaySchedule(off)).toBeUndefined();
  });

  it('prefers the interval when both are set', () => {
    expect(inProcessReplaySchedule({ ...off, autoReplayIntervalMs: 200, maxDelayMs: 50 })).toEqual({
      mode: 'interval',
      intervalMs: 200,
    });
  });

  it('replays recorded gaps capped by MAX_DELAY when only that is set', () => {
    expect(inProcessReplaySchedule({ ...off, maxDelayMs: 500, initialDelayMs: 10 })).toEqual({
      mode: 'timed',
      maxDelayMs: 500,
      initialDelayMs: 10,
    });
  });
});

describe('createInProcessReplay', () => {
  it('plays recorded gaps capped at MAX_DELAY and loops', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    // Gaps of 1 s and 30 s; MAX_DELAY 2 s turns the second into 2 s.
    const replay = createInProcessReplay({
      settings: { ...off, maxDelayMs: 2000 },
      recordings: [message(0), message(1), message(31)],
      clock,
      deliver: (m) => {
        seen.push(m.message.payload.second as number);
      },
    });
    replay?.start();
    clock.advance(0);
    expect(seen).toEqual([0]);
    clock.advance(999);
    expect(seen).toEqual([0]);
    clock.advance(1);
    expect(seen).toEqual([0, 1]);
    clock.advance(1999);
    expect(seen).toEqual([0, 1]);
    // The last message, then the loop starts over at once (timed mode's initial delay is 0).
    clock.advance(1);
    expect(seen).toEqual([0, 1, 31, 0]);
    await replay?.stop();
  });

  it('returns nothing when replay is off or there is nothing recorded', () => {
    const clock = new ManualClock();
    expect(
      createInProcessReplay({ settings: off, recordings: [message(0)], clock, deliver: () => undefined }),
    ).toBeUndefined();
    expect(
      createInProcessReplay({
        settings: { ...off, maxDelayMs: 10 },
        recordings: [],
        clock,
        deliver: () => undefined,
      }),
    ).toBeUndefined();
  });
});
