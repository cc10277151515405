/** The label every close code outside the known ones shares in racedata_sessions_closed_total. */
export const OTHER_CLOSE_CODE = 'other';

/**
 * The `code` label of a closed session: its own for the codes RFC 6455 defines (1000-1015) and
 * those the simulator itself sent (a disconnect rule's or POST /_sim/connections/close's code),
 * `other` for the rest. A client picks its close code freely (3000-4999), so labelling each one
 * let any client add up to 2000 series to every scrape.
 */
export function closeCodeLabel(code: number, sentBySimulator: ReadonlySet<number>): string {
  if ((code >= 1000 && code <= 1015) || sentBySimulator.has(code)) return String(code);
  return OTHER_CLOSE_CODE;
}
