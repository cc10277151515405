/**
 * A YYYY-MM-DD date as the number yyyymmdd: ordered like the text, compared without strings,
 * kept in an Int32Array column. Every date reaching the store was checked at the edge
 * (isCalendarDate); anything else is a programming error, refused before the store changes.
 */
export function dayNumber(date: string): number {
  if (date.length !== 10 || date.charCodeAt(4) !== 0x2d || date.charCodeAt(7) !== 0x2d) {
    throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  }
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const digit = date.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
    n = n * 10 + digit;
  }
  return n;
}

/** The YYYY-MM-DD text of a dayNumber(). */
export function dayText(day: number): string {
  const text = String(day).padStart(8, '0');
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}`;
}
