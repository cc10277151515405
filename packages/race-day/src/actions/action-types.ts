import type { Phase } from '../derive/phase';

/**
 * Steering a running day (POST /_sim/race-day/actions): each action is a plan operation applied
 * at the simulator's now, so what follows from it is what the same edge case would produce.
 */
export const RACE_ACTIONS = [
  'scratch',
  'change-driver',
  'delay-start',
  'false-start',
  'disqualify',
  'dead-heat',
  'correct-result',
  'cancel-race',
  'finish-now',
] as const;

/** Actions on a whole meeting: the race named (if any) only says which race the answer shows. */
export const MEETING_ACTIONS = ['cancel-meeting', 'abandon-meeting', 'postpone-meeting'] as const;

export const ACTION_NAMES = [...RACE_ACTIONS, ...MEETING_ACTIONS] as const;

export type RaceActionName = (typeof RACE_ACTIONS)[number];
export type MeetingActionName = (typeof MEETING_ACTIONS)[number];
export type ActionName = (typeof ACTION_NAMES)[number];

export interface Placing {
  readonly startNr: number;
  readonly place: number;
}

interface RaceTarget {
  readonly trackId: number;
  readonly raceNr: number;
}

interface MeetingTarget {
  readonly trackId: number;
  readonly raceNr?: number;
}

/** One action, checked: every field of the right type; whether it fits the day is checked on apply. */
export type RaceDayAction =
  | (RaceTarget & { readonly action: 'scratch'; readonly startNr: number; readonly reason?: string })
  | (RaceTarget & {
      readonly action: 'change-driver';
      readonly startNr: number;
      readonly driver?: string;
      readonly reason?: string;
    })
  | (RaceTarget & { readonly action: 'delay-start'; readonly minutes: number; readonly reason?: string })
  | (RaceTarget & {
      readonly action: 'false-start';
      readonly restartAfterSeconds?: number;
      readonly reason?: string;
    })
  | (RaceTarget & { readonly action: 'disqualify'; readonly startNr: number; readonly reason?: string })
  | (RaceTarget & { readonly action: 'dead-heat'; readonly startNrs: readonly number[] })
  | (RaceTarget & {
      readonly action: 'correct-result';
      readonly placings: readonly Placing[];
      readonly reason?: string;
    })
  | (RaceTarget & { readonly action: 'cancel-race'; readonly reason?: string })
  | (RaceTarget & { readonly action: 'finish-now' })
  | (MeetingTarget & { readonly action: 'cancel-meeting'; readonly reason?: string })
  | (MeetingTarget & { readonly action: 'abandon-meeting'; readonly reason?: string })
  | (MeetingTarget & {
      readonly action: 'postpone-meeting';
      readonly toDate: string;
      /** The new date's first start, `HH:MM` local; the races keep their spacing. Default: as planned. */
      readonly firstStart?: string;
      readonly reason?: string;
    });

/** An action's arguments as the docs and a 400 list them: name, type, required. */
export interface ArgumentSpec {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'string' | 'date' | 'time' | 'integer[]' | 'placings';
  readonly required: boolean;
  readonly summary: string;
}

export interface ActionSpec {
  readonly name: ActionName;
  readonly level: 'race' | 'meeting';
  /** The phases of the race in which it may be taken (meeting actions: see `when`). */
  readonly phases: readonly Phase[];
  /** When it may be taken, in words, for errors and docs. */
  readonly when: string;
  readonly summary: string;
  readonly args: readonly ArgumentSpec[];
}

const reason: ArgumentSpec = {
  name: 'reason',
  type: 'string',
  required: false,
  summary: 'why, as the messages carry it',
};
const startNr: ArgumentSpec = { name: 'startNr', type: 'integer', required: true, summary: 'the start' };

export const ACTION_SPECS: Readonly<Record<ActionName, ActionSpec>> = {
  scratch: {
    name: 'scratch',
    level: 'race',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before the start',
    summary: 'scratches the start: a Scratchings message and a new start list; posts move in',
    args: [startNr, reason],
  },
  'change-driver': {
    name: 'change-driver',
    level: 'race',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before the start, once per start',
    summary: 'a new driver or jockey: a new start list naming the original one too',
    args: [
      startNr,
      { name: 'driver', type: 'string', required: false, summary: 'the new driver; default: one invented' },
      reason,
    ],
  },
  'delay-start': {
    name: 'delay-start',
    level: 'race',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before the start, the new start before 22:00',
    summary: 'a later start: the countdown jumps up at once',
    args: [{ name: 'minutes', type: 'number', required: true, summary: 'more than 0, at most 180' }, reason],
  },
  'false-start': {
    name: 'false-start',
    level: 'race',
    phases: ['countdown', 'running'],
    when: 'while counting down (the coming start is recalled) or running before the field reaches the first split',
    summary: 'a recall: the countdown reaches 0, then runs again to the restart',
    args: [
      {
        name: 'restartAfterSeconds',
        type: 'integer',
        required: false,
        summary: 'from the recall to the restart, 10-900; default 120',
      },
      reason,
    ],
  },
  disqualify: {
    name: 'disqualify',
    level: 'race',
    phases: ['running', 'result'],
    when: 'while running (live, where the runner is now) or once the result is out (a changed result)',
    summary: 'running: PrelDisqualifiedHorses now, gone from later splits; result: a corrected result',
    args: [startNr, reason],
  },
  'dead-heat': {
    name: 'dead-heat',
    level: 'race',
    phases: ['finished', 'result'],
    when: 'once the race has finished',
    summary:
      'finished: the result (after a photo) shows them sharing the better place; result: a corrected result',
    args: [
      {
        name: 'startNrs',
        type: 'integer[]',
        required: true,
        summary: 'two or more finishers (placed, once the result is out)',
      },
    ],
  },
  'correct-result': {
    name: 'correct-result',
    level: 'race',
    phases: ['result'],
    when: 'once the result is published',
    summary: 'replaces the published result: a revision saying it is a correction',
    args: [
      {
        name: 'placings',
        type: 'placings',
        required: true,
        summary:
          '[{startNr, place}] placing each placed start once, places from 1 (a shared place leaves the next empty)',
      },
      reason,
    ],
  },
  'cancel-race': {
    name: 'cancel-race',
    level: 'race',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before the start',
    summary: 'calls the race off: a programme revision; its countdowns stop',
    args: [reason],
  },
  'finish-now': {
    name: 'finish-now',
    level: 'race',
    phases: ['countdown', 'running'],
    when: 'while counting down (it starts at once) or running',
    summary: 'the race runs to its finish at once: its remaining splits and last 500 m go out now',
    args: [],
  },
  'cancel-meeting': {
    name: 'cancel-meeting',
    level: 'meeting',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before its first race starts',
    summary: 'calls the whole meeting off: a programme revision; nothing more of it',
    args: [reason],
  },
  'abandon-meeting': {
    name: 'abandon-meeting',
    level: 'meeting',
    phases: ['running', 'finished', 'result'],
    when: 'after a race has started and before the next one starts',
    summary:
      'stops the rest of the meeting after the last race started (raceNr, if given, must be that race)',
    args: [reason],
  },
  'postpone-meeting': {
    name: 'postpone-meeting',
    level: 'meeting',
    phases: ['scheduled', 'parade', 'countdown'],
    when: 'before its first race starts',
    summary: "moves the meeting to another date: the new date's programme and start lists go out",
    args: [
      {
        name: 'toDate',
        type: 'date',
        required: true,
        summary: 'a real date after the meeting’s, within a year',
      },
      {
        name: 'firstStart',
        type: 'time',
        required: false,
        summary:
          'HH:MM, the first race on the new date (the races keep their spacing, the last before 22:00)',
      },
      reason,
    ],
  },
};

/** The fields every action takes beside its own arguments. */
export const TARGET_KEYS = ['action', 'trackId', 'raceNr'] as const;
