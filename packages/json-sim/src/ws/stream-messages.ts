import { randomUUID } from 'node:crypto';
import { type EventInput, jsonDepthExceeds } from '@racedata/core';

/** Every event-stream message shares type, timestamp and id (interface 2.7). */
function envelope(type: string, now: number): { type: string; timestamp: string; id: string } {
  return { type, timestamp: new Date(now).toISOString(), id: randomUUID() };
}

/** "10 seconds" at the default; short test deadlines read "300 ms" rather than "0 seconds". */
export function describeDeadline(ms: number): string {
  if (ms % 1000 !== 0) return `${ms} ms`;
  return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
}

export function connectionMessage(now: number, deadlineMs: number): string {
  return JSON.stringify({
    ...envelope('Connection', now),
    message: `Connected. Send your token as the first message within ${describeDeadline(deadlineMs)}.`,
  });
}

export function authenticatedMessage(now: number, key: string): string {
  return JSON.stringify({ ...envelope('Authenticated', now), message: `Authenticated as ${key}` });
}

export function authenticationErrorMessage(now: number, message: string): string {
  return JSON.stringify({ ...envelope('AuthenticationError', now), message });
}

export function pingMessage(now: number): string {
  return JSON.stringify(envelope('Ping', now));
}

/** Serialised once per event and shared by every recipient. */
export function dataMessage(now: number, input: EventInput): string {
  const data = {
    channel: input.channel,
    date: input.date,
    ...(input.trackId !== undefined && { trackId: input.trackId }),
    ...(input.raceNr !== undefined && { raceNr: input.raceNr }),
    ...(input.startNr !== undefined && { startNr: input.startNr }),
    payload: input.payload,
  };
  return JSON.stringify({ ...envelope('Data', now), data });
}

/**
 * The first client message may be the raw token, `Bearer <token>`, or JSON `{"token"}` /
 * `{"authorization": "Bearer ..."}`, so clients written against any of these forms work.
 */
export function tokenFromFirstMessage(text: string): string | undefined {
  const trimmed = text.trim();
  // `ws.send(JSON.stringify(token))` sends a quoted string; take it as the raw token it wraps.
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
    // Nothing a token message needs is nested; a deep one is refused unparsed like a deep body.
    if (jsonDepthExceeds(Buffer.from(trimmed, 'utf8'))) return undefined;
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (typeof parsed === 'string') return stripBearer(parsed);
      const record = (parsed ?? {}) as Record<string, unknown>;
      const value = record.token ?? record.authorization ?? record.Authorization;
      return typeof value === 'string' ? stripBearer(value) : undefined;
    } catch {
      return undefined;
    }
  }
  return trimmed === '' ? undefined : stripBearer(trimmed);
}

function stripBearer(value: string): string | undefined {
  const token = value
    .trim()
    .replace(/^Bearer\s+/i, '')
    .trim();
  return token === '' || /\s/.test(token) ? undefined : token;
}
