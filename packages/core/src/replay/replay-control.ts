import type { Clock } from '../clock';
import { coreError } from '../errors';
import type { Logger } from '../logger';
import { inProcessReplaySchedule, type InProcessReplaySettings } from './in-process-replay';
import { raceOf } from './race-of';
import { localDate, rebaseDates } from './rebase-dates';
import type { RecordedMessage } from './recording-types';
import { createReplayer, type ReplaySchedule, type Replayer } from './replayer';

/** Without a configured speed, a replay started from the control plane sends one message a second. */
export const DEFAULT_CONTROL_INTERVAL_MS = 1000;

/** What POST /_sim/replay asks for. */
export type ReplayCommand =
  | { readonly action: 'start'; readonly schedule?: ReplaySchedule }
  | { readonly action: 'pause' | 'resume' | 'next-race' }
  | { readonly action: 'speed'; readonly schedule: ReplaySchedule };

/** GET /_sim/replay: the replay as the console shows it. */
export interface ReplayView {
  /** Recorded messages loaded; 0 means replay cannot be started. */
  readonly recorded: number;
  readonly on: boolean;
  readonly paused: boolean;
  readonly mode: 'interval' | 'timed' | null;
  readonly intervalMs: number | null;
  readonly maxDelayMs: number | null;
  readonly position: number;
  readonly total: number;
  readonly loops: number;
  readonly sent: number;
  /** The race of the next live (transient) message, e.g. `2024-05-11 track 901 race 3`. */
  readonly nextRace: string | null;
}

/** The replay as the simulator and its control plane hold it, whatever its message kind. */
export interface ReplayHandle {
  readonly current: Replayer | undefined;
  autostart(): void;
  stop(): Promise<void>;
  command(command: ReplayCommand): ReplayView;
  view(): ReplayView;
}

export interface ReplayControlOptions<M extends RecordedMessage> {
  settings: InProcessReplaySettings;
  recordings: readonly M[];
  clock: Clock;
  logger?: Logger;
  /** The simulator's own publish path, so replayed messages are filtered like injected ones. */
  deliver: (message: M) => void;
}

const conflict = (message: string) => coreError('REPLAY_STATE', message);

/**
 * The simulator's in-process replay of its recordings and the control plane's handle on it:
 * started on listen when AUTO_REPLAY_MESSAGE_INTERVAL or MAX_DELAY is set, or later through
 * POST /_sim/replay; paused, resumed, sped up or skipped to the next race while it runs.
 */
export class ReplayControl<M extends RecordedMessage> implements ReplayHandle {
  private replayer: Replayer | undefined;
  private messages: readonly M[] | undefined;

  constructor(private readonly options: ReplayControlOptions<M>) {
    const schedule = inProcessReplaySchedule(options.settings);
    if (schedule !== undefined && options.recordings.length > 0) this.replayer = this.create(schedule);
  }

  /** The replayer once one exists (configured, or started through the control plane). */
  get current(): Replayer | undefined {
    return this.replayer;
  }

  /** Starts the configured replay (on listen); does nothing when none is configured. */
  autostart(): void {
    this.replayer?.start();
  }

  stop(): Promise<void> {
    return this.replayer?.stop() ?? Promise.resolve();
  }

  /** Applies a command, or throws REPLAY_STATE (409) when the replay is not in a state for it. */
  command(command: ReplayCommand): ReplayView {
    const replayer = this.replayer;
    switch (command.action) {
      case 'start': {
        if (this.options.recordings.length === 0) {
          throw conflict('no recordings are loaded, so there is nothing to replay (see RECORDINGS_DIR)');
        }
        if (this.isOn()) throw conflict('the replay is already running; pause or resume it');
        const schedule: ReplaySchedule = command.schedule ??
          inProcessReplaySchedule(this.options.settings) ?? {
            mode: 'interval',
            intervalMs: DEFAULT_CONTROL_INTERVAL_MS,
          };
        // A configured replay that was never started (the simulator is not listening) starts here.
        this.replayer = this.create(schedule);
        this.replayer.start();
        break;
      }
      case 'pause':
        if (!replayer?.pause()) throw conflict('the replay is not running');
        break;
      case 'resume':
        if (!replayer?.resume()) throw conflict('the replay is not paused');
        break;
      case 'speed':
        if (!replayer || !this.isOn()) throw conflict('the replay is not running; start it with a speed');
        replayer.setSchedule(command.schedule);
        break;
      case 'next-race': {
        if (!replayer || !this.isOn()) throw conflict('the replay is not running');
        const index = this.nextRaceIndex(replayer.stats().position);
        if (index === undefined) throw conflict('the recording has no race to jump to');
        replayer.jumpTo(index);
        break;
      }
    }
    return this.view();
  }

  view(): ReplayView {
    const replayer = this.replayer;
    const recorded = this.options.recordings.length;
    if (!replayer) {
      return {
        recorded,
        on: false,
        paused: false,
        mode: null,
        intervalMs: null,
        maxDelayMs: null,
        position: 0,
        total: 0,
        loops: 0,
        sent: 0,
        nextRace: null,
      };
    }
    const { position, total, loops, sent } = replayer.stats();
    const schedule = replayer.schedule;
    const next = this.messages?.[position];
    return {
      recorded,
      on: this.isOn(),
      paused: replayer.paused,
      mode: schedule.mode,
      intervalMs: schedule.mode === 'interval' ? schedule.intervalMs : null,
      maxDelayMs: schedule.mode === 'timed' ? (schedule.maxDelayMs ?? null) : null,
      position,
      total,
      loops,
      sent,
      nextRace: next ? (raceOf(next) ?? null) : null,
    };
  }

  private isOn(): boolean {
    const state = this.replayer?.state;
    return state === 'running' || state === 'paused';
  }

  private create(schedule: ReplaySchedule): Replayer {
    const { settings, clock, recordings } = this.options;
    this.messages = settings.replayRebaseDates ? rebaseDates(recordings, localDate(clock.now())) : recordings;
    return createReplayer({
      messages: this.messages,
      schedule,
      loop: true,
      clock,
      ...(this.options.logger && { logger: this.options.logger }),
      deliver: this.options.deliver,
    });
  }

  /**
   * The first live message of another race after `position` (wrapping around): live
   * (transient) messages are what a running race sends, so a jump lands on its countdown.
   */
  private nextRaceIndex(position: number): number | undefined {
    const messages = this.messages ?? [];
    const live = (m: M) => (m.delivery === 'transient' ? raceOf(m) : undefined);
    let current: string | undefined;
    for (let i = position - 1; i >= 0 && current === undefined; i--) current = live(messages[i]!);
    for (let step = 0; step < messages.length; step++) {
      const index = (position + step) % messages.length;
      const race = live(messages[index]!);
      if (race !== undefined && race !== current) return index;
    }
    return undefined;
  }
}
