import { writePadded } from './ascii-digits';

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from here on toISOString() writes a six-digit year. */
const YEAR_10000 = 253_402_300_800_000;

/** True when toISOString() of this epoch millisecond time is the usual 24 ASCII characters. */
export function plainIsoTime(ms: number): boolean {
  return ms >= 0 && ms < YEAR_10000;
}

/**
 * Writes new Date(ms).toISOString() (YYYY-MM-DDTHH:mm:ss.sssZ, 24 bytes) for a plainIsoTime();
 * when `sameDayAs` is the start of ms's UTC day, the date part already at `at` is kept and only
 * the time is written. Returns the start of ms's day, to pass back next time.
 */
export function writeIsoTime(target: Uint8Array, at: number, ms: number, sameDayAs: number): number {
  ms = Math.floor(ms);
  const dayStart = ms - (ms % DAY_MS);
  if (dayStart !== sameDayAs) writeDate(target, at, dayStart / DAY_MS);
  let t = ms - dayStart;
  const milli = t % 1000;
  t = (t - milli) / 1000;
  const second = t % 60;
  t = (t - second) / 60;
  const minute = t % 60;
  writePadded(target, at + 11, (t - minute) / 60, 2);
  writePadded(target, at + 14, minute, 2);
  writePadded(target, at + 17, second, 2);
  writePadded(target, at + 20, milli, 3);
  target[at + 10] = 0x54; // T
  target[at + 13] = 0x3a; // :
  target[at + 16] = 0x3a;
  target[at + 19] = 0x2e; // .
  target[at + 23] = 0x5a; // Z
  return dayStart;
}

// YYYY-MM-DD of a count of days since 1970-01-01 (>= 0): the civil-from-days algorithm of
// Howard Hinnant's date library, in whole numbers.
function writeDate(target: Uint8Array, at: number, days: number): void {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  writePadded(target, at, year, 4);
  target[at + 4] = 0x2d;
  writePadded(target, at + 5, month, 2);
  target[at + 7] = 0x2d;
  writePadded(target, at + 8, day, 2);
}
