/** Calendar dates as `YYYY-MM-DD`, counted in whole days; no time zone is involved here. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The date's parts when it is a real calendar date (2026-02-30 is not), else undefined. */
export function dateParts(text: string): { year: number; month: number; day: number } | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export const isRealDate = (text: string): boolean => dateParts(text) !== undefined;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Days since 1970-01-01 of a real date. */
export function dayIndex(date: string): number {
  const p = dateParts(date);
  if (!p) throw new RangeError(`not a real date: ${date}`);
  return Date.UTC(p.year, p.month - 1, p.day) / DAY_MS;
}

export function dateOfIndex(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}

export const addDays = (date: string, days: number): string => dateOfIndex(dayIndex(date) + days);

/** 0 Sunday ... 6 Saturday. */
export const weekday = (date: string): number => (dayIndex(date) + 4) % 7;

/** 1-based day of the year. */
export function dayOfYear(date: string): number {
  return dayIndex(date) - dayIndex(`${date.slice(0, 4)}-01-01`) + 1;
}
