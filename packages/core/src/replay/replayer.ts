import type { Clock, TimerHandle } from '../clock';
import { coreError } from '../errors';
import type { Logger } from '../logger';

/**
 * interval: one message every intervalMs, the first after initialDelayMs (default: the interval),
 * as AUTO_REPLAY_MESSAGE_INTERVAL / INITIAL_DELAY describe.
 * timed: the recorded gaps between consecutive `at`s, each capped by maxDelayMs (MAX_DELAY);
 * the first message after initialDelayMs (default 0).
 */
export type ReplaySchedule =
  | { readonly mode: 'interval'; readonly intervalMs: number; readonly initialDelayMs?: number }
  | { readonly mode: 'timed'; readonly maxDelayMs?: number; readonly initialDelayMs?: number };

export interface ReplayStats {
  /** Deliveries that succeeded, over all loops. */
  readonly sent: number;
  /** Deliveries that threw or rejected, over all loops. */
  readonly failed: number;
  /** Messages of the current pass handled so far (0 to total). */
  readonly position: number;
  readonly total: number;
  /** Completed passes that restarted at the first message. */
  readonly loops: number;
}

export interface ReplayerOptions<M extends { readonly at: number }> {
  readonly messages: readonly M[];
  readonly schedule: ReplaySchedule;
  /** Restart at the first message when done. Default: true in interval mode, false in timed mode. */
  readonly loop?: boolean;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Publishes one message; a returned promise is awaited before the next is scheduled. */
  readonly deliver: (message: M) => void | Promise<void>;
  /** Names a message in logs; defaults to its `source` when it has one. */
  readonly describe?: (message: M) => string;
}

export interface Replayer {
  /** Schedules the first message; calling it again does nothing. */
  start(): void;
  /**
   * Cancels what is scheduled and resolves once a delivery in flight has settled; if that
   * delivery fails after stop() it counts as cancelled, not failed.
   */
  stop(): Promise<void>;
  stats(): ReplayStats;
  /**
   * Holds the next message until resume(); a delivery in flight completes. The time left until
   * the next message is kept, so resume() goes on where the pause cut in. False unless running.
   */
  pause(): boolean;
  /** Goes on after pause(); false unless paused. */
  resume(): boolean;
  readonly paused: boolean;
  /** idle before start(), stopped after stop() or the last message of a non-looping replay. */
  readonly state: 'idle' | 'running' | 'paused' | 'stopped';
  /** The schedule in force; setSchedule() replaces it. */
  readonly schedule: ReplaySchedule;
  /**
   * Changes the speed: the next message is rescheduled as if the new schedule had been in force
   * when the previous one fired (at once if that moment has passed).
   */
  setSchedule(schedule: ReplaySchedule): void;
  /**
   * Makes `index` the next message of the pass and sends it at once (when running; when paused,
   * on resume). Messages between are skipped, not sent.
   */
  jumpTo(index: number): void;
  /** Resolves when a non-looping replay has handled its last message, or after stop(). */
  readonly done: Promise<void>;
}

/** Node fires a longer setTimeout at once, so no replay wait may exceed it (about 24.8 days). */
export const MAX_REPLAY_DELAY_MS = 2_147_483_647;

export function checkSchedule(schedule: ReplaySchedule): void {
  const bad = (what: string, value: number | undefined, min: number) =>
    value !== undefined && !(Number.isFinite(value) && value >= min && value <= MAX_REPLAY_DELAY_MS)
      ? coreError(
          'CONFIG_INVALID',
          `replay ${what} must be a number from ${min} to ${MAX_REPLAY_DELAY_MS}, got ${value}`,
        )
      : undefined;
  const error =
    schedule.mode === 'interval'
      ? (bad('interval', schedule.intervalMs, 1) ?? bad('initial delay', schedule.initialDelayMs, 0))
      : (bad('max delay', schedule.maxDelayMs, 0) ?? bad('initial delay', schedule.initialDelayMs, 0));
  if (error) throw error;
}

function isThenable(value: unknown): value is PromiseLike<void> {
  return typeof (value as PromiseLike<void> | undefined)?.then === 'function';
}

const defaultDescribe = (message: object): string => {
  const source = (message as { source?: unknown }).source;
  return typeof source === 'string' ? source : 'message';
};

export function createReplayer<M extends { readonly at: number }>(options: ReplayerOptions<M>): Replayer {
  const { messages, clock, logger, deliver } = options;
  let schedule = options.schedule;
  checkSchedule(schedule);
  const loop = options.loop ?? schedule.mode === 'interval';
  const describe = options.describe ?? defaultDescribe;
  const firstDelay = () =>
    schedule.mode === 'interval'
      ? (schedule.initialDelayMs ?? schedule.intervalMs)
      : (schedule.initialDelayMs ?? 0);

  let state: 'idle' | 'running' | 'paused' | 'stopped' = 'idle';
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let position = 0;
  let sent = 0;
  let failed = 0;
  let loops = 0;
  /** When the next message is due (clock time), while one is scheduled or held by a pause. */
  let dueAt: number | undefined;
  /** Time left until the next message when paused; undefined while a delivery is in flight. */
  let heldMs: number | undefined;
  /** When the previous message fired and whether the next one starts a new pass. */
  let lastFiredAt: number | undefined;
  let wrappedNext = false;
  /** A jumpTo() made while a delivery was in flight, applied once it settles. */
  let pendingJump: number | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const finish = () => {
    state = 'stopped';
    resolveDone();
  };

  const gapBefore = (next: number, wrapped: boolean): number => {
    if (schedule.mode === 'interval') return schedule.intervalMs;
    if (wrapped || next === 0) return firstDelay();
    const recorded = Math.min(MAX_REPLAY_DELAY_MS, Math.max(0, messages[next]!.at - messages[next - 1]!.at));
    return schedule.maxDelayMs === undefined ? recorded : Math.min(recorded, schedule.maxDelayMs);
  };

  const onFailure = (message: M, err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    // stop() may cancel the delivery in flight (the CLI aborts its post); that is not a failure.
    if (state === 'stopped') {
      logger?.debug({ source: describe(message), err: reason }, 'delivery cancelled');
      return;
    }
    failed += 1;
    logger?.error({ source: describe(message), err: reason }, 'replayed message not delivered');
  };

  const schedule_ = (delay: number) => {
    dueAt = clock.now() + delay;
    if (state === 'running') {
      timer = clock.setTimeout(fire, delay);
    } else if (state === 'paused') {
      heldMs = delay;
    }
  };

  const afterDelivery = (firedAt: number) => {
    position += 1;
    if (state !== 'running' && state !== 'paused') return;
    lastFiredAt = firedAt;
    if (pendingJump !== undefined) {
      position = pendingJump;
      pendingJump = undefined;
      wrappedNext = false;
      return schedule_(0);
    }
    let wrapped = false;
    if (position >= messages.length) {
      if (!loop) return finish();
      position = 0;
      loops += 1;
      wrapped = true;
    }
    wrappedNext = wrapped;
    // Measured from when the previous message fired, so a slow delivery does not stretch the gaps.
    schedule_(Math.max(0, firedAt + gapBefore(position, wrapped) - clock.now()));
  };

  const fire = () => {
    timer = undefined;
    dueAt = undefined;
    if (state !== 'running') return;
    const message = messages[position]!;
    const firedAt = clock.now();
    let result: void | Promise<void>;
    try {
      result = deliver(message);
    } catch (err) {
      onFailure(message, err);
      return afterDelivery(firedAt);
    }
    if (!isThenable(result)) {
      sent += 1;
      return afterDelivery(firedAt);
    }
    inFlight = Promise.resolve(result).then(
      () => {
        sent += 1;
      },
      (err: unknown) => onFailure(message, err),
    );
    void inFlight.then(() => {
      inFlight = undefined;
      afterDelivery(firedAt);
    });
  };

  const cancelTimer = () => {
    timer?.cancel();
    timer = undefined;
  };

  return {
    done,
    start() {
      if (state !== 'idle') return;
      state = 'running';
      if (messages.length === 0) {
        logger?.warn('replay has no messages');
        return finish();
      }
      logger?.info({ messages: messages.length, mode: schedule.mode, loop }, 'replay started');
      schedule_(firstDelay());
    },
    async stop() {
      if (state === 'stopped') return done;
      state = 'stopped';
      cancelTimer();
      if (inFlight) await inFlight;
      resolveDone();
      return done;
    },
    pause() {
      if (state !== 'running') return false;
      state = 'paused';
      // With a delivery in flight nothing is scheduled yet: afterDelivery() keeps the gap.
      if (timer) {
        cancelTimer();
        heldMs = Math.max(0, (dueAt ?? clock.now()) - clock.now());
      }
      logger?.info({ position }, 'replay paused');
      return true;
    },
    resume() {
      if (state !== 'paused') return false;
      state = 'running';
      if (heldMs !== undefined) {
        const delay = heldMs;
        heldMs = undefined;
        schedule_(delay);
      }
      logger?.info({ position }, 'replay resumed');
      return true;
    },
    get paused() {
      return state === 'paused';
    },
    get state() {
      return state;
    },
    get schedule() {
      return schedule;
    },
    setSchedule(next) {
      checkSchedule(next);
      schedule = next;
      if (lastFiredAt === undefined) return;
      const delay = Math.max(0, lastFiredAt + gapBefore(position, wrappedNext) - clock.now());
      if (timer) {
        cancelTimer();
        schedule_(delay);
      } else if (state === 'paused' && heldMs !== undefined) {
        heldMs = delay;
      }
    },
    jumpTo(index) {
      if (!Number.isInteger(index) || index < 0 || index >= messages.length) {
        throw coreError('VALIDATION_FAILED', `replay position must be from 0 to ${messages.length - 1}`);
      }
      if (inFlight) {
        pendingJump = index;
        return;
      }
      position = index;
      wrappedNext = false;
      if (timer) {
        cancelTimer();
        schedule_(0);
      } else if (state === 'paused' && heldMs !== undefined) {
        heldMs = 0;
      }
    },
    stats: () => ({ sent, failed, position, total: messages.length, loops }),
  };
}
