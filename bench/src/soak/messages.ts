import type { LegacyMessage } from '../harness/http';

/**
 * What the soak posts: every message carries its kind's sequence number and target channel, so a
 * receipt names exactly which post it is, and its bytes can be checked against the post.
 */
export const soakXml = (kind: 'Durable' | 'NonDurable', seq: number, target: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>' +
  `<SoakMessage kind="${kind}" channel="${target}" seq="${seq}" date="2025-06-01" trackId="901">` +
  `<Note>soak ${kind} message ${seq} for ${target}</Note><SecondsToStart>${300 - (seq % 300)}</SecondsToStart>` +
  '</SoakMessage>';

/** The sequence number inside a soak XML document, or NaN. */
export const seqOfXml = (xml: string) => Number(/seq="(\d+)"/.exec(xml)?.[1] ?? NaN);

export const soakLegacyMessage = (
  kind: 'Durable' | 'NonDurable',
  target: string,
  seq: number,
): LegacyMessage => ({
  ...{ channel: target, payloadKey: `soak-${seq}`, xml: soakXml(kind, seq, target) },
});

export const seqOfPayloadKey = (key: unknown) =>
  typeof key === 'string' && key.startsWith('soak-') ? Number(key.slice(5)) : Number.NaN;

export const soakJson = (channel: string, seq: number) =>
  JSON.stringify({
    ...{ channel, date: '2025-06-01', trackId: 901, raceNr: 3 },
    payload: { seq, note: `soak message ${seq} for ${channel}`, secondsToStart: 300 - (seq % 300) },
  });

/** The eventId of a 201 answer to a durable POST /api/message. */
export function eventIdOf(body: Buffer): number | undefined {
  try {
    const id = (JSON.parse(body.toString()) as { data?: { event?: { eventId?: unknown } } }).data?.event
      ?.eventId;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
