import { isCalendarDate, isoDate } from '../dates';
import { coreError } from '../errors';
import type { RecordedMessage } from './recording-types';

const DAY_MS = 86_400_000;

// Digits on either side would make it part of a longer number (an id, a phone number), not a date.
const DATE_IN_TEXT = /(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)/g;
const DATE_ATTRIBUTE = /\bdate="(\d{4}-\d{2}-\d{2})"/;

function dayNumber(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

export function shiftDate(date: string, days: number): string {
  return isoDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** Replaces every real YYYY-MM-DD inside a text, leaving times and zones around it untouched. */
export function shiftDatesInText(text: string, days: number): string {
  return text.replace(DATE_IN_TEXT, (match: string) =>
    isCalendarDate(match) ? shiftDate(match, days) : match,
  );
}

function shiftDeep(value: unknown, days: number): unknown {
  if (typeof value === 'string') return shiftDatesInText(value, days);
  if (Array.isArray(value)) return value.map((item) => shiftDeep(item, days));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shiftDeep(item, days)]));
  }
  return value;
}

/**
 * The race date of a message: a JSON event's `date`; for a legacy document the first
 * `date="..."` attribute, else the first date in the text, else the UTC day of `at`.
 */
export function raceDateOf(message: RecordedMessage): string {
  if (message.kind === 'json') return message.message.date;
  const attribute = DATE_ATTRIBUTE.exec(message.xml)?.[1];
  if (attribute !== undefined && isCalendarDate(attribute)) return attribute;
  const inText = [...message.xml.matchAll(DATE_IN_TEXT)].map((m) => m[1] ?? '').find(isCalendarDate);
  return inText ?? isoDate(message.at);
}

/** The earliest race date of a recording, the one rebasing moves to today. */
export function firstRecordedDate(messages: readonly RecordedMessage[]): string | undefined {
  let first: string | undefined;
  for (const message of messages) {
    const date = raceDateOf(message);
    if (first === undefined || date < first) first = date;
  }
  return first;
}

function shiftMessage<M extends RecordedMessage>(message: M, days: number): M {
  const at = message.at + days * DAY_MS;
  if (message.kind === 'legacy') {
    return {
      ...message,
      at,
      payloadKey: shiftDatesInText(message.payloadKey, days),
      xml: shiftDatesInText(message.xml, days),
    };
  }
  const event = message.message;
  return {
    ...message,
    at,
    message: {
      ...event,
      date: shiftDate(event.date, days),
      payload: shiftDeep(event.payload, days) as Record<string, unknown>,
    },
  };
}

/**
 * Moves a recording in time by whole days so its first race date becomes `today`
 * (REPLAY_REBASE_DATES): event dates, every date inside payloads, XML and payload keys, and
 * `at`. Times of day are kept, so a meeting still starts at its recorded hour.
 */
export function rebaseDates<M extends RecordedMessage>(messages: readonly M[], today: string): M[] {
  if (!isCalendarDate(today))
    throw coreError('RECORDING_INVALID', `"${today}" is not a date written YYYY-MM-DD`);
  const first = firstRecordedDate(messages);
  if (first === undefined) return [...messages];
  const days = dayNumber(today) - dayNumber(first);
  if (days === 0) return [...messages];
  return messages.map((message) => shiftMessage(message, days));
}

/** Today's date where the process runs, which is what a "today's race day" client asks for. */
export function localDate(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
