import { dayIndex, dateOfIndex, daysInMonth } from './dates';

/**
 * Swedish local time (Europe/Stockholm) by the EU rule in force since 1996: UTC+1, and UTC+2
 * from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. Worked
 * out here rather than through Intl so a day is the same bytes on any Node build (small-icu
 * included); a property test holds it against Intl where Intl knows the zone.
 */
export const TIME_ZONE = 'Europe/Stockholm';

const HOUR = 3_600_000;
const MINUTE = 60_000;

function lastSunday(year: number, month: number): number {
  const last = daysInMonth(year, month);
  const index = Date.UTC(year, month - 1, last) / 86_400_000;
  return index - ((index + 4) % 7);
}

/** Summer time of each year asked for: [start, end) in UTC ms. */
const summers = new Map<number, readonly [number, number]>();

function summerOf(year: number): readonly [number, number] {
  let summer = summers.get(year);
  if (!summer) {
    summer = [lastSunday(year, 3) * 86_400_000 + HOUR, lastSunday(year, 10) * 86_400_000 + HOUR];
    summers.set(year, summer);
  }
  return summer;
}

/** The zone's offset from UTC, in ms, at an instant. */
export function offsetAt(utcMs: number): number {
  const [start, end] = summerOf(new Date(utcMs).getUTCFullYear());
  return utcMs >= start && utcMs < end ? 2 * HOUR : HOUR;
}

/**
 * The instant of a local wall time on a date. A wall time the spring change skips (02:00-03:00)
 * is read with the offset before it; one the autumn change repeats is read as the first.
 */
export function localInstant(date: string, minutesOfDay: number): number {
  const wall = dayIndex(date) * 86_400_000 + minutesOfDay * MINUTE;
  const before = wall - HOUR;
  const summer = wall - 2 * HOUR;
  return offsetAt(summer) === 2 * HOUR ? summer : before;
}

/** Local midnight of a date, as an instant. */
export const localMidnight = (date: string): number => localInstant(date, 0);

/** The local date of an instant. */
export function localDateOf(utcMs: number): string {
  return dateOfIndex(Math.floor((utcMs + offsetAt(utcMs)) / 86_400_000));
}

/** Minutes since local midnight of an instant (fractions kept). */
export function localMinutesOf(utcMs: number): number {
  const local = utcMs + offsetAt(utcMs);
  return (local - Math.floor(local / 86_400_000) * 86_400_000) / MINUTE;
}

// A day prints the same few thousand instants over and over (start times in every tick).
const isoCache = new Map<number, string>();

/** ISO 8601 with the local offset, to the second: 2024-05-11T14:45:00+02:00. */
export function localIso(utcMs: number): string {
  const second = Math.floor(utcMs / 1000) * 1000;
  let text = isoCache.get(second);
  if (text === undefined) {
    const offset = offsetAt(second);
    text = `${new Date(second + offset).toISOString().slice(0, 19)}+0${offset / HOUR}:00`;
    if (isoCache.size >= 20_000) isoCache.clear();
    isoCache.set(second, text);
  }
  return text;
}

/** `HH:MM` local. */
export function localClock(utcMs: number): string {
  return localIso(utcMs).slice(11, 16);
}
