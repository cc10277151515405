import { ManualClock } from '../../src/clock';
import { silentLogger } from '../../src/logger';
import { createReplayer, type ReplayerOptions } from '../../src/replay';

interface Msg {
  at: number;
  id: string;
}

const T0 = Date.UTC(2024, 4, 11, 10, 0, 0);

function msgs(...offsets: number[]): Msg[] {
  return offsets.map((offset, i) => ({ at: T0 + offset, id: `m${i}` }));
}

function setup(messages: Msg[], options: Partial<ReplayerOptions<Msg>> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const start = clock.now();
  const seen: Array<{ id: string; t: number }> = [];
  const replayer = createReplayer<Msg>({
    messages,
    schedule: { mode: 'interval', intervalMs: 100 },
    clock,
    logger: silentLogger(),
    deliver: (m) => {
      seen.push({ id: m.id, t: clock.now() - start });
    },
    ...options,
  });
  return { clock, replayer, ids: () => seen.map((s) => s.id), times: () => seen.map((s) => s.t) };
}

describe('replay: pause and resume', () => {
  it('holds the next message while paused and keeps the time that was left', () => {
    const { clock, replayer, ids, times } = setup(msgs(0, 1, 2, 3));
    replayer.start();
    clock.advance(130); // m0 at 100; m1 due at 200
    expect(replayer.pause()).toBe(true);
    expect(replayer.state).toBe('paused');
    clock.advance(10_000);
    expect(ids()).toEqual(['m0']);
    expect(clock.pendingTimers).toBe(0);
    expect(replayer.resume()).toBe(true);
    clock.advance(69);
    expect(ids()).toEqual(['m0']);
    clock.advance(1);
    expect(times()).toEqual([100, 10_200]);
    clock.advance(100);
    expect(ids()).toEqual(['m0', 'm1', 'm2']);
  });

  it('refuses pause unless running and resume unless paused', () => {
    const { replayer } = setup(msgs(0, 1));
    expect(replayer.pause()).toBe(false);
    expect(replayer.resume()).toBe(false);
    replayer.start();
    expect(replayer.resume()).toBe(false);
    expect(replayer.pause()).toBe(true);
    expect(replayer.pause()).toBe(false);
  });

  it('pausing during an asynchronous delivery holds the message after it', async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const sent: string[] = [];
    const replayer = createReplayer<Msg>({
      messages: msgs(0, 1, 2),
      schedule: { mode: 'interval', intervalMs: 100 },
      clock,
      deliver: (m) => {
        sent.push(m.id);
        return m.id === 'm0' ? new Promise<void>((resolve) => (release = resolve)) : undefined;
      },
    });
    replayer.start();
    clock.advance(100);
    expect(replayer.pause()).toBe(true);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(1000);
    expect(sent).toEqual(['m0']);
    replayer.resume();
    // The delivery settled at 100, so the next message is still a whole interval away.
    clock.advance(99);
    expect(sent).toEqual(['m0']);
    clock.advance(1);
    expect(sent).toEqual(['m0', 'm1']);
  });
});

describe('replay: speed', () => {
  it('reschedules the next message from when the previous one fired', () => {
    const { clock, replayer, times } = setup(msgs(0, 1, 2, 3), {
      schedule: { mode: 'interval', intervalMs: 1000 },
    });
    replayer.start();
    clock.advance(1000); // m0 at 1000
    clock.advance(100);
    replayer.setSchedule({ mode: 'interval', intervalMs: 300 });
    expect(replayer.schedule).toEqual({ mode: 'interval', intervalMs: 300 });
    clock.advance(200); // m1 due at 1300
    expect(times()).toEqual([1000, 1300]);
    clock.advance(300);
    expect(times()).toEqual([1000, 1300, 1600]);
  });

  it('sends at once when the new gap has passed already, and switches to recorded gaps', () => {
    const { clock, replayer, times } = setup(msgs(0, 5000, 5500), {
      schedule: { mode: 'interval', intervalMs: 1000 },
      loop: false,
    });
    replayer.start();
    clock.advance(1500); // m0 at 1000, 500 ms since
    replayer.setSchedule({ mode: 'timed', maxDelayMs: 200 });
    clock.advance(0);
    expect(times()).toEqual([1000, 1500]);
    clock.advance(200); // recorded 500 ms, capped at 200
    expect(times()).toEqual([1000, 1500, 1700]);
  });

  it('applies a speed set while paused on resume, and refuses a bad one', () => {
    const { clock, replayer, times } = setup(msgs(0, 1, 2), {
      schedule: { mode: 'interval', intervalMs: 1000 },
    });
    replayer.start();
    clock.advance(1000);
    replayer.pause();
    replayer.setSchedule({ mode: 'interval', intervalMs: 10 });
    replayer.resume();
    clock.advance(10);
    expect(times()).toEqual([1000, 1010]);
    expect(() => replayer.setSchedule({ mode: 'interval', intervalMs: 0 })).toThrow(/interval/);
    expect(replayer.schedule).toEqual({ mode: 'interval', intervalMs: 10 });
  });
});

describe('replay: jumpTo', () => {
  it('skips to a message and sends it at once, then goes on from there', () => {
    const { clock, replayer, ids } = setup(msgs(0, 1, 2, 3, 4));
    replayer.start();
    clock.advance(100);
    replayer.jumpTo(3);
    clock.advance(0);
    expect(ids()).toEqual(['m0', 'm3']);
    clock.advance(100);
    expect(ids()).toEqual(['m0', 'm3', 'm4']);
    expect(replayer.stats().position).toBe(0);
  });

  it('while paused, the jumped-to message comes first on resume', () => {
    const { clock, replayer, ids } = setup(msgs(0, 1, 2, 3));
    replayer.start();
    clock.advance(100);
    replayer.pause();
    replayer.jumpTo(2);
    clock.advance(500);
    expect(ids()).toEqual(['m0']);
    replayer.resume();
    clock.advance(0);
    expect(ids()).toEqual(['m0', 'm2']);
  });

  it('refuses a position outside the recording', () => {
    const { replayer } = setup(msgs(0, 1));
    expect(() => replayer.jumpTo(2)).toThrow(/from 0 to 1/);
    expect(() => replayer.jumpTo(-1)).toThrow();
  });
});
