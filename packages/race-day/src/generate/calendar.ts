import { dayOfYear, weekday } from '../time/dates';
import type { Rng } from '../random';
import type { MeetingKind, Sport } from '../model/types';
import { GALLOP_TRACKS, TROT_TRACKS, type Track } from './tracks';

/** How many meetings of each sport a date gets: the calendar's choice or the `meetings` option. */
export interface MeetingCounts {
  readonly trot: number;
  readonly gallop: number;
}

/** One meeting of the day before its races are drawn. */
export interface MeetingSlot {
  readonly sport: Sport;
  readonly kind: MeetingKind;
  readonly track: Track;
  /** Minutes after local midnight of the first race's scheduled start. */
  readonly firstStart: number;
}

// race-day-facts.md, Calendar: most dates have 2-3 trot meetings; gallop from mid-April to
// mid-December, mostly Wednesdays and Sundays, 60-70 days a year.
const TROT_COUNTS: ReadonlyArray<readonly [number, number]> = [
  [1, 8],
  [2, 47],
  [3, 40],
  [4, 5],
];
const GALLOP_SEASON = { from: 105, to: 349 }; // about 15 April to 15 December
const GALLOP_DAYS = new Set([0, 3]); // Sunday, Wednesday

/** The calendar's counts for a date (`meetings: auto`). */
export function calendarCounts(date: string, r: Rng): MeetingCounts {
  const trot = r.weighted(TROT_COUNTS);
  const day = dayOfYear(date);
  const inSeason = day >= GALLOP_SEASON.from && day <= GALLOP_SEASON.to;
  const gallop = inSeason && r.chance(GALLOP_DAYS.has(weekday(date)) ? 0.85 : 0.05) ? 1 : 0;
  return { trot, gallop };
}

const HHMM = (h: number, m: number) => h * 60 + m;

/** Kinds of trot meetings in the order a date fills them, by weekday. */
function trotKinds(date: string): MeetingKind[] {
  switch (weekday(date)) {
    case 6:
      return ['afternoon', 'lunch', 'evening', 'lunch'];
    case 0:
      return ['day', 'lunch', 'evening', 'lunch'];
    default:
      return ['evening', 'lunch', 'lunch', 'evening'];
  }
}

function firstStartOf(kind: MeetingKind, r: Rng): number {
  switch (kind) {
    case 'lunch':
      return HHMM(12, 0) + 5 * r.int(0, 21); // 12:00-13:45
    case 'day':
      return HHMM(13, 0) + 5 * r.int(0, 9); // 13:00-13:45
    case 'afternoon':
      return HHMM(16, 20);
    case 'evening':
      return HHMM(18, 0) + 5 * r.int(0, 6); // 18:00-18:30
  }
}

/** Weighted draw without replacement. */
function drawTrack(r: Rng, tracks: readonly Track[], taken: Set<number>, onlyBig: boolean): Track {
  const open = tracks.filter((t) => !taken.has(t.id) && (!onlyBig || t.big));
  const track = r.weighted(open.map((t) => [t, t.weight] as const));
  taken.add(track.id);
  return track;
}

/**
 * The meetings of a date: tracks, kinds and first starts. Two meetings of one kind start at
 * least 20 minutes apart, so their races interleave as on a real afternoon.
 */
export function meetingSlots(date: string, counts: MeetingCounts, r: Rng): MeetingSlot[] {
  const slots: MeetingSlot[] = [];
  const taken = new Set<number>();
  const kinds = trotKinds(date);
  for (let i = 0; i < counts.trot; i++) {
    const kind = kinds[i % kinds.length]!;
    const track = drawTrack(r, TROT_TRACKS, taken, kind === 'afternoon');
    let firstStart = firstStartOf(kind, r);
    const same = slots.filter((s) => s.kind === kind).map((s) => s.firstStart);
    while (same.some((other) => Math.abs(other - firstStart) < 20)) firstStart += 25;
    slots.push({ sport: 'trot', kind, track, firstStart });
  }
  for (let i = 0; i < counts.gallop; i++) {
    const track = drawTrack(r, GALLOP_TRACKS, taken, false);
    let firstStart = HHMM(11, 50) + 5 * r.int(0, 24); // 11:50-13:50
    while (slots.some((s) => s.sport === 'gallop' && Math.abs(s.firstStart - firstStart) < 20))
      firstStart += 25;
    slots.push({ sport: 'gallop', kind: 'day', track, firstStart });
  }
  return slots.sort((a, b) => a.firstStart - b.firstStart || a.track.id - b.track.id);
}
