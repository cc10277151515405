import { ManualClock } from '../../src/clock';
import { silentLogger } from '../../src/logger';
import { createReplayer, type ReplayerOptions } from '../../src/replay';

interface Msg {
  at: number;
  id: string;
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
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
  return { clock, seen, replayer, ids: () => seen.map((s) => s.id), times: () => seen.map((s) => s.t) };
}

describe('replay: createReplayer, interval mode', () => {
  it('sends one message per interval, the first after one interval by default', () => {
    const { clock, replayer, ids, times } = setup(msgs(0, 5, 9_000_000), { loop: false });
    replayer.start();
    clock.advance(99);
    expect(ids()).toEqual([]);
    clock.advance(1);
    expect(ids()).toEqual(['m0']);
    clock.advance(200);
    expect(times()).toEqual([100, 200, 300]);
    expect(replayer.stats()).toEqual({ sent: 3, failed: 0, position: 3, total: 3, loops: 0 });
  });

  it('honours the initial delay, including zero', () => {
    const a = setup(msgs(0, 1), { schedule: { mode: 'interval', intervalMs: 100, initialDelayMs: 1000 } });
    a.replayer.start();
    a.clock.advance(1100);
    expect(a.times()).toEqual([1000, 1100]);

    const b = setup(msgs(0, 1), { schedule: { mode: 'interval', intervalMs: 100, initialDelayMs: 0 } });
    b.replayer.start();
    b.clock.advance(0);
    expect(b.times()).toEqual([0]);
  });

  it('loops by default, restarting at the first message one interval later', () => {
    const { clock, replayer, ids, times } = setup(msgs(0, 1, 2));
    replayer.start();
    clock.advance(700);
    expect(ids()).toEqual(['m0', 'm1', 'm2', 'm0', 'm1', 'm2', 'm0']);
    expect(times()).toEqual([100, 200, 300, 400, 500, 600, 700]);
    expect(replayer.stats()).toEqual({ sent: 7, failed: 0, position: 1, total: 3, loops: 2 });
  });

  it('resolves done when a non-looping replay ends', async () => {
    const { clock, replayer } = setup(msgs(0, 1), { loop: false });
    let finished = false;
    void replayer.done.then(() => (finished = true));
    replayer.start();
    await clock.advanceAsync(150, 50);
    expect(finished).toBe(false);
    await clock.advanceAsync(100, 50);
    expect(finished).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a non-positive interval', () => {
    expect(() => setup(msgs(0), { schedule: { mode: 'interval', intervalMs: 0 } })).toThrow(/interval/);
  });
});

describe('replay: createReplayer, timed mode', () => {
  it('keeps the recorded gaps, the first message at once', () => {
    const { clock, replayer, times } = setup(msgs(0, 250, 250, 1250), { schedule: { mode: 'timed' } });
    replayer.start();
    clock.advance(5000);
    expect(times()).toEqual([0, 250, 250, 1250]);
  });

  it('caps every gap at maxDelayMs', () => {
    const hour = 3_600_000;
    const { clock, replayer, times } = setup(msgs(0, 300, hour, hour + 50, 3 * hour), {
      schedule: { mode: 'timed', maxDelayMs: 1000 },
    });
    replayer.start();
    clock.advance(10_000);
    expect(times()).toEqual([0, 300, 1300, 1350, 2350]);
  });

  it('does not loop unless asked; looping restarts after the initial delay', () => {
    const once = setup(msgs(0, 10), { schedule: { mode: 'timed' } });
    once.replayer.start();
    once.clock.advance(1000);
    expect(once.ids()).toEqual(['m0', 'm1']);

    const looped = setup(msgs(0, 10), { schedule: { mode: 'timed', initialDelayMs: 500 }, loop: true });
    looped.replayer.start();
    looped.clock.advance(1020);
    expect(looped.times()).toEqual([500, 510, 1010, 1020]);
    expect(looped.replayer.stats().loops).toBe(2);
  });

  it('never waits longer than a Node timer can', () => {
    const month = 31 * 86_400_000;
    const { clock, replayer, times } = setup(msgs(0, month), { schedule: { mode: 'timed' } });
    replayer.start();
    clock.advance(month);
    expect(times()).toEqual([0, 2_147_483_647]);
    expect(() => setup(msgs(0), { schedule: { mode: 'timed', maxDelayMs: 2 ** 31 } })).toThrow(/max delay/);
  });

  it('treats out-of-order timestamps as no gap', () => {
    const { clock, replayer, times } = setup(msgs(100, 0, 50), { schedule: { mode: 'timed' } });
    replayer.start();
    clock.advance(1000);
    expect(times()).toEqual([0, 0, 50]);
  });
});

describe('replay: createReplayer, stopping and failures', () => {
  it('stops mid-way: nothing more is sent and done resolves', async () => {
    const { clock, replayer, ids } = setup(msgs(0, 1, 2, 3));
    replayer.start();
    clock.advance(200);
    await replayer.stop();
    await replayer.done;
    clock.advance(10_000);
    expect(ids()).toEqual(['m0', 'm1']);
    expect(replayer.stats().position).toBe(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('counts and logs failed deliveries, thrown or rejected, and carries on', async () => {
    const clock = new ManualClock();
    const logged: unknown[] = [];
    const logger = { ...silentLogger(), error: (obj: unknown) => logged.push(obj) };
    let n = 0;
    const replayer = createReplayer<Msg>({
      messages: msgs(0, 1, 2, 3),
      schedule: { mode: 'interval', intervalMs: 10 },
      loop: false,
      clock,
      logger: logger as never,
      describe: (m) => m.id,
      deliver: () => {
        n += 1;
        if (n === 1) throw new Error('boom');
        if (n === 3) return Promise.reject(new Error('later boom'));
        return Promise.resolve();
      },
    });
    replayer.start();
    await clock.advanceAsync(100, 5);
    await replayer.done;
    expect(replayer.stats()).toEqual({ sent: 2, failed: 2, position: 4, total: 4, loops: 0 });
    expect(logged).toEqual([
      { source: 'm0', err: 'boom' },
      { source: 'm2', err: 'later boom' },
    ]);
  });

  it('never has two deliveries in flight and waits for a slow one before scheduling', async () => {
    const clock = new ManualClock();
    let inFlight = 0;
    let maxInFlight = 0;
    const releases: Array<() => void> = [];
    const firedAt: number[] = [];
    const replayer = createReplayer<Msg>({
      messages: msgs(0, 1, 2),
      schedule: { mode: 'interval', intervalMs: 100 },
      loop: false,
      clock,
      deliver: () => {
        firedAt.push(clock.now());
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return new Promise<void>((resolve) =>
          releases.push(() => {
            inFlight -= 1;
            resolve();
          }),
        );
      },
    });
    const t0 = clock.now();
    replayer.start();
    await clock.advanceAsync(1000, 50);
    expect(firedAt.map((t) => t - t0)).toEqual([100]);
    releases.shift()!();
    await flush();
    clock.advance(0);
    // The gap is measured from when the slow message fired, so the next one is due at once.
    expect(firedAt.map((t) => t - t0)).toEqual([100, 1000]);
    releases.shift()!();
    await flush();
    clock.advance(99);
    expect(firedAt).toHaveLength(2);
    clock.advance(1);
    expect(firedAt.map((t) => t - t0)).toEqual([100, 1000, 1100]);
    releases.shift()!();
    await replayer.done;
    expect(maxInFlight).toBe(1);
    expect(replayer.stats().sent).toBe(3);
  });

  it('stop() waits for the delivery in flight', async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const replayer = createReplayer<Msg>({
      messages: msgs(0, 1),
      schedule: { mode: 'interval', intervalMs: 10 },
      clock,
      deliver: () => new Promise<void>((resolve) => (release = resolve)),
    });
    replayer.start();
    clock.advance(10);
    let stopped = false;
    const stopping = replayer.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(replayer.stats()).toMatchObject({ sent: 1, position: 1 });
    clock.advance(1000);
    expect(replayer.stats().sent).toBe(1);
  });

  it('finishes at once with no messages', async () => {
    const { replayer } = setup([]);
    replayer.start();
    await replayer.done;
    expect(replayer.stats()).toEqual({ sent: 0, failed: 0, position: 0, total: 0, loops: 0 });
  });
});

describe('replay: createReplayer, cancelling', () => {
  it('does not count a delivery that fails because stop() cancelled it', async () => {
    const clock = new ManualClock();
    let cancel!: (err: Error) => void;
    const replayer = createReplayer<Msg>({
      messages: msgs(0, 1),
      schedule: { mode: 'interval', intervalMs: 10 },
      clock,
      deliver: () => new Promise<void>((_resolve, reject) => (cancel = reject)),
    });
    replayer.start();
    clock.advance(10);
    const stopping = replayer.stop();
    cancel(new Error('aborted'));
    await stopping;
    expect(replayer.stats()).toEqual({ sent: 0, failed: 0, position: 1, total: 2, loops: 0 });
  });
});
