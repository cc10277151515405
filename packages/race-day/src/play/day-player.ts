import { MAX_TIMER_MS, type Clock, type Logger, type TimerHandle } from '@racedata/core';
import type { Stream } from '../timeline/day-timeline';
import { deliveryOf, type DayMessage } from '../timeline/messages';
import type { DayListener, PlayingDay, RaceDay } from './race-day';

// The timelines load with the first day played, as the generator does (race-day.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const timelines = () => require('../timeline/day-timeline') as typeof import('../timeline/day-timeline');

/** Where a simulator takes a day's messages: its own publish path, as replay uses. */
export interface DaySink {
  /**
   * The durable messages already due when play starts, in time order, with the clock time each
   * would have been sent at: stored or queued at once, as history.
   */
  history(messages: readonly DayMessage[], clockTimes: readonly number[]): void;
  /** One message now due; `action` names the race-day action that made it, if one did. */
  live(message: DayMessage, action?: string): void;
}

interface Cursor {
  readonly stream: Stream;
  messages: readonly DayMessage[] | undefined;
  index: number;
}

/**
 * Identifies a message within its instant, so a replan neither repeats nor drops one. The payload
 * counts: an action at an instant something was played makes another message there (a countdown
 * tick with the new start), and that one is played.
 */
const keyOf = (m: DayMessage) =>
  `${m.channel}|${m.date}|${m.trackId}|${m.raceNr ?? ''}|${m.startNr ?? ''}|${JSON.stringify(m.payload)}`;

export interface DayPlayerOptions {
  readonly day: RaceDay;
  readonly clock: Clock;
  readonly sink: DaySink;
  readonly logger?: Logger;
}

/**
 * Plays a RaceDay on one simulator's clock. At start everything already due is history (durable
 * messages to the sink at once; live ones are gone, as they would be); then one timer at a time
 * for the next message due. A clock advance fires that timer once and every message now due is
 * played in order. A race's live part (its countdown ticks) is built only when its time comes.
 */
export class DayPlayer implements DayListener {
  private playing: PlayingDay | undefined;
  private cursors: Cursor[] = [];
  private timer: TimerHandle | undefined;
  /** Day time of the last instant played, and the keys of what was played at it. */
  private lastAt = Number.NEGATIVE_INFINITY;
  private lastKeys = new Map<string, number>();
  private playedCount = 0;
  /** While a replan plays what an action made: the action, and what was played. */
  private acting: { readonly action: string; readonly played: DayMessage[] } | undefined;
  private lastActed: readonly DayMessage[] = [];
  /** The instant of the last action and its name, for what is played at that instant later. */
  private pending: { readonly at: number; readonly action: string } | undefined;
  private readonly detach: () => void;

  constructor(private readonly options: DayPlayerOptions) {
    this.detach = options.day.attach(this);
  }

  /** Day time now on this simulator's clock, or undefined with no day playing. */
  dayNow(): number | undefined {
    const p = this.playing;
    return p && p.anchorDay + (this.options.clock.now() - p.anchorClock) * p.speed;
  }

  /** The clock time at which day time `at` comes. */
  clockTimeOf(at: number): number {
    const p = this.playing!;
    return p.anchorClock + (at - p.anchorDay) / p.speed;
  }

  get played(): number {
    return this.playedCount;
  }

  restart(day: PlayingDay): void {
    this.cancel();
    this.playing = day;
    this.playedCount = 0;
    this.pending = undefined;
    const now = this.dayNow()!;
    this.cursors = timelines()
      .dayStreams(day.plan)
      .map((stream) => ({ stream, messages: undefined, index: 0 }));
    const history: DayMessage[] = [];
    const times: number[] = [];
    // Durable history in time order: merged across streams, live streams already over skipped.
    for (;;) {
      const next = this.peek(now, true);
      if (!next) break;
      const m = next.cursor.messages![next.cursor.index++]!;
      if (deliveryOf(m) === 'durable') {
        history.push(m);
        times.push(this.clockTimeOf(m.at));
      }
    }
    this.lastAt = now;
    this.lastKeys = new Map();
    if (history.length > 0) this.options.sink.history(history, times);
    this.playedCount = history.length;
    this.options.logger?.info(
      { date: day.plan.date, speed: day.speed, history: history.length, meetings: day.plan.meetings.length },
      'race day started',
    );
    this.schedule();
  }

  /** Plays at once everything due by now (before an action, so what it makes stands apart). */
  catchUp(): void {
    if (!this.playing) return;
    this.cancel();
    this.fire();
  }

  /** What the last action's replan played on this simulator, in order. */
  get actionMessages(): readonly DayMessage[] {
    return this.lastActed;
  }

  /**
   * The plan changed at `at` (an action, named by `action`): what is not played yet is
   * re-derived, and what is due now (what the action made) is played at once.
   */
  replan(day: PlayingDay, at: number, action?: string): void {
    this.cancel();
    this.playing = day;
    this.cursors = timelines()
      .dayStreams(day.plan)
      .map((stream) => ({ stream, messages: undefined, index: 0 }));
    const seen = new Map(this.lastKeys);
    // Skip what was played: everything before the last instant, and at it what was played then.
    for (const cursor of this.cursors) {
      if (cursor.stream.to < this.lastAt) {
        cursor.messages = [];
        continue;
      }
      if (cursor.stream.live && cursor.stream.from > this.lastAt) continue;
      cursor.messages = cursor.stream.build();
      while (cursor.index < cursor.messages.length) {
        const m = cursor.messages[cursor.index]!;
        if (m.at > this.lastAt) break;
        if (m.at === this.lastAt) {
          const k = keyOf(m);
          const left = seen.get(k) ?? 0;
          if (left === 0) break;
          seen.set(k, left - 1);
        }
        cursor.index += 1;
      }
    }
    if (action === undefined) {
      this.schedule();
      return;
    }
    // A player whose clock is behind the action's (the other simulator of `all`) plays its
    // messages when its clock gets there: they are still the action's.
    this.pending = { at, action };
    this.acting = { action, played: [] };
    try {
      // Only what is due at the action's instant: a millisecond the clock moved on meanwhile
      // belongs to the day, not to the action.
      this.fire(Math.min(at, this.dayNow() ?? at));
    } finally {
      this.lastActed = this.acting.played;
      this.acting = undefined;
    }
  }

  stop(): void {
    this.cancel();
    this.playing = undefined;
    this.cursors = [];
  }

  /** Stops playing and leaves the day (the simulator closes). */
  close(): void {
    this.stop();
    this.detach();
  }

  private cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /**
   * The cursor holding the earliest message not yet played at or before `until`. Live streams
   * are built when they come first; with `skipLive` those entirely before `until` are skipped
   * unbuilt (history needs only durable messages).
   */
  private peek(until: number, skipLive = false): { cursor: Cursor; at: number } | undefined {
    let best: { cursor: Cursor; at: number } | undefined;
    for (const cursor of this.cursors) {
      let at: number;
      if (cursor.messages === undefined) {
        if (skipLive && cursor.stream.live && cursor.stream.to < until) {
          cursor.messages = [];
          continue;
        }
        at = cursor.stream.from;
      } else {
        const m = cursor.messages[cursor.index];
        if (m === undefined) continue;
        at = m.at;
      }
      if (at <= until && (best === undefined || at < best.at)) best = { cursor, at };
    }
    if (best && best.cursor.messages === undefined) {
      best.cursor.messages = best.cursor.stream.build();
      return this.peek(until, skipLive);
    }
    return best;
  }

  private fire = (until?: number): void => {
    this.timer = undefined;
    const now = until ?? this.dayNow();
    if (now === undefined) return;
    for (;;) {
      const next = this.peek(now);
      if (!next) break;
      const m = next.cursor.messages![next.cursor.index++]!;
      // A race's live part is thousands of ticks: let it go once played.
      if (next.cursor.index === next.cursor.messages!.length) {
        next.cursor.messages = [];
        next.cursor.index = 0;
      }
      if (m.at !== this.lastAt) {
        this.lastAt = m.at;
        this.lastKeys = new Map();
      }
      const k = keyOf(m);
      this.lastKeys.set(k, (this.lastKeys.get(k) ?? 0) + 1);
      this.playedCount += 1;
      try {
        this.acting?.played.push(m);
        const action = this.acting?.action ?? (this.pending?.at === m.at ? this.pending.action : undefined);
        this.options.sink.live(m, action);
      } catch (err) {
        // One message a simulator refuses (a channel its catalog lacks) must not stop the day.
        this.options.logger?.warn(
          { err: (err as Error).message, channel: m.channel },
          'race-day message not delivered',
        );
      }
      if (this.playing === undefined) return;
    }
    this.schedule();
  };

  private schedule(): void {
    if (!this.playing) return;
    const next = this.peek(Number.POSITIVE_INFINITY);
    if (!next) {
      this.options.logger?.info({ played: this.playedCount }, 'race day played to its end');
      return;
    }
    const delay = Math.max(0, Math.ceil(this.clockTimeOf(next.at) - this.options.clock.now()));
    this.timer = this.options.clock.setTimeout(this.fire, Math.min(delay, MAX_TIMER_MS));
  }
}
