// One fixed seed and date: the committed recordings are checked against a fresh run byte for byte.
export const SEED = 20240511;
export const DATE = '2024-05-11';
// Swedish summer time; `at` is written in UTC, times inside the data in local time as in a real feed.
const ZONE = '+02:00';
const ZONE_MS = 2 * 3_600_000;

export type Sport = 'trot' | 'gallop';

export interface MeetingPlan {
  sport: Sport;
  trackId: number;
  track: string;
  races: number;
  firstStart: [number, number];
  gapsMin: number[];
  programmeAt: [number, number];
  scratchings: number;
}

// The order matters: both meetings draw from one random stream, gallop first.
export const PLANS: MeetingPlan[] = [
  {
    sport: 'gallop',
    trackId: 902,
    track: 'Ekbacka',
    races: 6,
    firstStart: [13, 0],
    gapsMin: [30],
    programmeAt: [7, 10],
    scratchings: 3,
  },
  {
    sport: 'trot',
    trackId: 901,
    track: 'Tallmyra',
    races: 8,
    firstStart: [14, 45],
    gapsMin: [25, 25, 30],
    programmeAt: [7, 0],
    scratchings: 4,
  },
];

export const localMs = (h: number, m: number) =>
  Date.parse(`${DATE}T00:00:00Z`) + (h * 60 + m) * 60_000 - ZONE_MS;
export const localIso = (ms: number) => new Date(ms + ZONE_MS).toISOString().slice(0, 19) + ZONE;
