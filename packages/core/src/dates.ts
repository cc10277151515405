/**
 * True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one), in the proleptic
 * Gregorian calendar JavaScript dates use. Checked digit by digit, with no regular expression or
 * Date object: bulk seeding checks the date of every line.
 */
export function isCalendarDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 ? (isLeapYear(year) ? 29 : 28) : (DAYS_IN_MONTH[month] as number));
}

const DASH = 0x2d;
const ZERO = 0x30;
/** Days per month, January at 1; February's depends on the year. */
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// The number written by text[from, to) in ASCII digits, or -1 if any of them is not one.
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** The UTC date of an epoch-ms instant as YYYY-MM-DD. */
export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
