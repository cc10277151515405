/**
 * The plan of a race day: the one source of truth every message is derived from
 * (timeline/). Times are UTC milliseconds of the day's own clock ("day time"); a player maps
 * them onto its simulator's clock. Everything here is plain data, so a plan is JSON as it is
 * and two plans are equal when their JSON is.
 */

export type Sport = 'trot' | 'gallop';
export type StartMethod = 'auto' | 'volte';
export type Surface = 'dirt' | 'turf';
export type Breed = 'warmblood' | 'coldblood' | 'thoroughbred';
export type Sex = 'mare' | 'gelding' | 'stallion';
export type MeetingKind = 'lunch' | 'afternoon' | 'evening' | 'day';

export interface Scratching {
  readonly at: number;
  readonly reason: string;
  /** After the parade: too late for the start list, post positions move in front of the start. */
  readonly afterParade: boolean;
  /** Set when several horses of one stable go at once (mass scratching). */
  readonly stable?: string;
}

export interface DriverChange {
  readonly at: number;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

/** Where a runner left the race: a live disqualification (galloping) or not finishing. */
export interface Stopped {
  readonly atMeters: number;
  readonly reason: string;
  /** How long after it happened the live message goes out (disqualifications only). */
  readonly announceAfterMs: number;
}

export interface Starter {
  readonly startNr: number;
  readonly horse: string;
  readonly age: number;
  readonly sex: Sex;
  /** A foreign-bred horse's country code, also in its name as `(US)`. */
  readonly country?: string;
  /** The driver (trot) or jockey (gallop) named in the start list. */
  readonly driver: string;
  readonly trainer: string;
  readonly owner: string;
  readonly breeder: string;
  /**
   * The post position drawn: autostart 1-8 front row, 9-12 second row; volte numbered again
   * from 1 in each handicap tier; gallop the stall. Scratchings move it (derive/post-positions).
   */
  readonly drawnPosition: number;
  /** Volte: 0, 20 or 40 m behind the front tier. */
  readonly handicapMeters?: number;
  /** Gallop: weight carried, kg. */
  readonly weightKg?: number;
  readonly odds: number;
  /** Seconds to run its own distance (the race's plus its handicap), to the hundredth. */
  readonly finishSeconds: number;
  /** Bends its pace: how far ahead or behind an even pace it runs mid-race, in seconds. */
  readonly shape: number;
  readonly scratched?: Scratching;
  readonly driverChange?: DriverChange;
  readonly disqualified?: Stopped;
  readonly nonFinisher?: Stopped;
}

/** A change to when a race starts, announced at `at`. */
export interface StartChange {
  readonly at: number;
  /**
   * delay: a later start is announced; recall: a false start at `falseStartAt`, restarted; now:
   * the start is given at once (finish-now on a race still counting down).
   */
  readonly kind: 'delay' | 'recall' | 'now';
  /** The start now expected. */
  readonly start: number;
  readonly reason: string;
  /** recall: when the recalled start was given. */
  readonly falseStartAt?: number;
}

/** A change to a published result. */
export interface ResultChange {
  readonly at: number;
  readonly kind: 'correction' | 'disqualification' | 'demotion';
  readonly reason: string;
  /** disqualification, demotion: the start concerned. */
  readonly startNr?: number;
  /** demotion: the place it is moved down to. */
  readonly toPlace?: number;
  /** correction: the corrected placings (dead heats share a place). */
  readonly placings?: ReadonlyArray<{ readonly startNr: number; readonly place: number }>;
}

export interface Race {
  readonly raceNr: number;
  readonly name: string;
  /** The race terms as printed in the programme; monté shows only here. */
  readonly terms: string;
  readonly breed: Breed;
  /** Metres for the front tier (volte) or every runner. */
  readonly distance: number;
  readonly startMethod?: StartMethod;
  readonly monte?: boolean;
  readonly surface: Surface;
  readonly firstPrizeSek: number;
  readonly scheduledStart: number;
  /** When the horses parade; its countdown (TimeToDef) runs the 5 minutes before. */
  readonly paradeAt: number;
  /** The start the countdown first aims at: the scheduled one plus the usual delay. */
  readonly plannedStart: number;
  readonly startChanges: readonly StartChange[];
  /** From the finish to the preliminary result. */
  readonly resultDelayMs: number;
  readonly photoFinish?: boolean;
  /**
   * finish-now: from `at` the race is run to its finish at once. Live messages the running still
   * had ahead of it all go out at `at`, in their order; the finish is `at`.
   */
  readonly finishNow?: { readonly at: number };
  readonly cancelled?: { readonly at: number; readonly reason: string };
  readonly surfaceChange?: {
    readonly at: number;
    readonly from: Surface;
    readonly to: Surface;
    readonly reason: string;
  };
  readonly resultChanges: readonly ResultChange[];
  readonly starters: readonly Starter[];
}

export interface Meeting {
  readonly trackId: number;
  readonly track: string;
  readonly sport: Sport;
  readonly kind: MeetingKind;
  /** The date it was planned for; a postponement names the new one. */
  readonly date: string;
  /** When the programme and start lists go out. */
  readonly programmeAt: number;
  readonly cancelled?: { readonly at: number; readonly reason: string };
  readonly abandoned?: { readonly at: number; readonly afterRace: number; readonly reason: string };
  readonly postponed?: {
    readonly at: number;
    readonly toDate: string;
    readonly reason: string;
    /** The new scheduled starts, race by race. */
    readonly starts: readonly number[];
  };
  readonly races: readonly Race[];
}

/** Where one edge case sits. */
export interface EdgeCasePlacement {
  readonly id: string;
  readonly trackId: number;
  readonly raceNr?: number;
  readonly startNr?: number;
}

export interface RaceDayPlan {
  readonly version: 1;
  readonly date: string;
  readonly seed: number;
  readonly timeZone: 'Europe/Stockholm';
  /** The meetings option as given: `auto` or `trot:N,gallop:N`. */
  readonly meetingsOption: string;
  /** The edge-cases option as given: `default`, `all`, `none` or a list. */
  readonly edgeCasesOption: string;
  readonly meetings: readonly Meeting[];
  readonly edgeCases: readonly EdgeCasePlacement[];
}
