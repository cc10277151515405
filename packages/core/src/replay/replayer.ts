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
  /** Resolves when a non-looping replay has handled its last message, or after stop(). */
  readonly done: Promise<void>;
}

/** Node fires a longer setTimeout at once, so no replay wait may exceed it (about 24.8 days). */
export const MAX_REPLAY_DELAY_MS = 2_147_483_647;

function checkSchedule(schedule: ReplaySchedule): void {
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
  const { messages, schedule, clock, logger, deliver } = options;
  checkSchedule(schedule);
  const loop = options.loop ?? schedule.mode === 'interval';
  const describe = options.describe ?? defaultDescribe;
  const firstDelay =
    schedule.mode === 'interval'
      ? (schedule.initialDelayMs ?? schedule.intervalMs)
      : (schedule.initialDelayMs ?? 0);

  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let position = 0;
  let sent = 0;
  let failed = 0;
  let loops = 0;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const finish = () => {
    state = 'stopped';
    resolveDone();
  };

  const gapBefore = (next: number, wrapped: boolean): number => {
    if (schedule.mode === 'interval') return schedule.intervalMs;
    if (wrapped) return firstDelay;
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

  const afterDelivery = (firedAt: number) => {
    position += 1;
    if (state !== 'running') return;
    let wrapped = false;
    if (position >= messages.length) {
      if (!loop) return finish();
      position = 0;
      loops += 1;
      wrapped = true;
    }
    // Measured from when the previous message fired, so a slow delivery does not stretch the gaps.
    const delay = Math.max(0, firedAt + gapBefore(position, wrapped) - clock.now());
    timer = clock.setTimeout(fire, delay);
  };

  const fire = () => {
    timer = undefined;
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
      timer = clock.setTimeout(fire, firstDelay);
    },
    async stop() {
      if (state === 'stopped') return done;
      state = 'stopped';
      timer?.cancel();
      timer = undefined;
      if (inFlight) await inFlight;
      resolveDone();
      return done;
    },
    stats: () => ({ sent, failed, position, total: messages.length, loops }),
  };
}
