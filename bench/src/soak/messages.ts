import type { LegacyMessage } from '../harness/http';

/**
 * What the soak posts: every message carries its kind's sequence number and target channel,
 * so a receipt names exactly which post it is, and its bytes can be checked against the post.
 */
export function soakXml(kind: 'Durable' | 'NonDurable', seq: number, target: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<SoakMessage kind="${kind}" channel="${target}" seq="${seq}" date="2025-06-01" trackId="901">` +
    `<Note>soak ${kind} message ${seq} for ${target}</Note><SecondsToStart>${300 - (seq % 300)}</SecondsToStart>` +
    '</SoakMessage>'
  );
}

const SEQ = /seq="(\d+)"/;

/** The sequence number inside a soak XML document, or NaN. */
export function seqOfXml(xml: string): number {
  const match = SEQ.exec(xml);
  return match ? Number(match[1]) : Number.NaN;
}

export function payloadKey(seq: number): string {
  return `soak-${seq}`;
}

/** The soak's legacy message `seq` of its kind, for channel `target`. */
export function soakLegacyMessage(
  kind: 'Durable' | 'NonDurable',
  target: string,
  seq: number,
): LegacyMessage {
  return { channel: target, payloadKey: payloadKey(seq), xml: soakXml(kind, seq, target) };
}

export function seqOfPayloadKey(key: unknown): number {
  return typeof key === 'string' && key.startsWith('soak-') ? Number(key.slice(5)) : Number.NaN;
}

export function soakJson(channel: string, seq: number): string {
  return JSON.stringify({
    channel,
    date: '2025-06-01',
    trackId: 901,
    raceNr: 3,
    payload: { seq, note: `soak message ${seq} for ${channel}`, secondsToStart: 300 - (seq % 300) },
  });
}

/** The eventId of a 201 answer to a durable POST /api/message. */
export function eventIdOf(body: Buffer): number | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { data?: { event?: { eventId?: unknown } } };
    const id = parsed.data?.event?.eventId;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
