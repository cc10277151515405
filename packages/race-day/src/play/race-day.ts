import { optionName, SETTINGS, type RaceDaySettings, type SettingKey } from '@racedata/core';
import type { RaceDayPlan } from '../model/types';
import type { DayMessage } from '../timeline/messages';
import {
  defaultSeed,
  parseDateOption,
  parseEdgeCasesOption,
  parseMeetingsOption,
  parseSeedOption,
  parseSpeedOption,
  parseStartAtOption,
  type DayOptions,
  type StartAt,
} from '../model/options';
import { localDateOf } from '../time/stockholm';
import { anchorDay } from './anchor';

// The generator is most of this package: it loads with the first day asked for, so a simulator
// started without one (the default) never loads it (player.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = () => require('../generate/day') as typeof import('../generate/day');

/** What starts a day: the day's options and how it plays. */
export interface PlayRequest {
  readonly day: DayOptions;
  readonly speed: number;
  readonly at: StartAt;
}

/** A day being played: its plan, and how day time maps onto the simulators' clocks. */
export interface PlayingDay {
  readonly request: PlayRequest;
  readonly plan: RaceDayPlan;
  readonly speed: number;
  /** Clock time at which day time was `anchorDay`. */
  readonly anchorClock: number;
  readonly anchorDay: number;
}

/** What RaceDay tells the players that play it (one per simulator). */
export interface DayListener {
  /** A new day (or the same one again): play it from its anchor, history first. */
  restart(day: PlayingDay): void;
  /**
   * The plan changed at day time `at`: replace what is not played yet. After an action (named by
   * `action`) what is due now is played at once.
   */
  replan(day: PlayingDay, at: number, action?: string): void;
  /** Play what is due by now, so an action's own messages stand apart. */
  catchUp(): void;
  /** Day time now on the listener's clock, or undefined with no day playing. */
  dayNow(): number | undefined;
  /** What the last action's replan played, in order. */
  readonly actionMessages: readonly DayMessage[];
  stop(): void;
}

/**
 * The race day the simulators of one process play: its options, plan and clock mapping. With
 * `racedata-sim all` both simulators share one, so they play the same day in step and a
 * POST /_sim/race-day on either restarts both.
 */
export class RaceDay {
  private playing: PlayingDay | undefined;
  private readonly listeners = new Set<DayListener>();

  get current(): PlayingDay | undefined {
    return this.playing;
  }

  /** Generates the requested day and starts it at clock time `now`; throws on a bad request, changing nothing. */
  start(request: PlayRequest, now: number): PlayingDay {
    const plan = generator().generateDay(request.day);
    const day: PlayingDay = {
      request,
      plan,
      speed: request.speed,
      anchorClock: now,
      anchorDay: anchorDay(plan, request.at, now),
    };
    this.playing = day;
    for (const listener of this.listeners) listener.restart(day);
    return day;
  }

  /** Replaces the plan (an action) as of day time `at`; the players re-derive what comes after. */
  change(plan: RaceDayPlan, at: number, action?: string): PlayingDay {
    if (!this.playing) throw new Error('no race day is playing');
    this.playing = { ...this.playing, plan };
    for (const listener of this.listeners) listener.replan(this.playing, at, action);
    return this.playing;
  }

  /**
   * Takes an action now. Every player first plays what is due; the action's instant is then the
   * latest day time among them (players of one day on separate clocks differ by the moments
   * between their go-tos), so no player has played beyond it. `edit` makes the new plan (throwing
   * changes nothing); the player at that instant plays what the action made at once, a player
   * behind it when its clock gets there. Answers with the messages the action made, in order.
   */
  act(
    action: string,
    edit: (plan: RaceDayPlan, at: number) => RaceDayPlan,
  ): { day: PlayingDay; at: number; emitted: readonly DayMessage[] } {
    if (!this.playing) throw new Error('no race day is playing');
    for (const listener of this.listeners) listener.catchUp();
    let ahead: DayListener | undefined;
    let at = Number.NEGATIVE_INFINITY;
    for (const listener of this.listeners) {
      const now = listener.dayNow();
      if (now !== undefined && now > at) [ahead, at] = [listener, now];
    }
    if (!ahead) throw new Error('no player plays the race day');
    const plan = edit(this.playing.plan, at);
    const day = this.change(plan, at, action);
    return { day, at, emitted: ahead.actionMessages };
  }

  stop(): boolean {
    const was = this.playing !== undefined;
    this.playing = undefined;
    for (const listener of this.listeners) listener.stop();
    return was;
  }

  /** Adds a player; it starts on the day already playing, if there is one. */
  attach(listener: DayListener): () => void {
    this.listeners.add(listener);
    if (this.playing) listener.restart(this.playing);
    return () => this.listeners.delete(listener);
  }
}

const nameOf = (key: SettingKey): string => optionName(SETTINGS.find((s) => s.key === key)!);

/**
 * The day the settings ask for (RACE_DAY and its companions), checked whole: an unknown edge
 * case or a meeting cap names its variable and flag. `now` resolves `today` (the date in Sweden).
 */
export function playRequestFromSettings(settings: RaceDaySettings, now: number): PlayRequest | undefined {
  if (settings.raceDay === undefined) return undefined;
  const date = parseDateOption(settings.raceDay, localDateOf(now), nameOf('raceDay'));
  const request: PlayRequest = {
    day: {
      date,
      seed:
        settings.raceDaySeed === undefined
          ? defaultSeed(date)
          : parseSeedOption(settings.raceDaySeed, nameOf('raceDaySeed')),
      meetings: parseMeetingsOption(settings.raceDayMeetings, nameOf('raceDayMeetings')),
      edgeCases: parseEdgeCasesOption(settings.raceDayEdgeCases, nameOf('raceDayEdgeCases')),
    },
    speed: parseSpeedOption(settings.raceDaySpeed, nameOf('raceDaySpeed')),
    at: parseStartAtOption(settings.raceDayAt, nameOf('raceDayAt')),
  };
  return request;
}
