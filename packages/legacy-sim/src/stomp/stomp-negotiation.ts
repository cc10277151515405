import { SUPPORTED_VERSIONS, type StompHeaders, type StompVersion } from '@racedata/core';

/**
 * The highest version both sides speak. A CONNECT without `accept-version` is a 1.0 client
 * (STOMP 1.1 "Protocol Negotiation"); undefined means no common version.
 */
export function negotiateVersion(headers: StompHeaders): StompVersion | undefined {
  const offered = headers['accept-version'];
  if (offered === undefined) return '1.0';
  const wanted = new Set(offered.split(',').map((v) => v.trim()));
  return [...SUPPORTED_VERSIONS].reverse().find((v) => wanted.has(v));
}

export interface HeartBeatOffer {
  /** Smallest interval at which this side can send beats (ms), 0 = cannot. */
  readonly send: number;
  /** Interval at which this side wants to receive beats (ms), 0 = does not want them. */
  readonly receive: number;
}

export interface HeartBeatPlan {
  /** How often the server must send something (ms), 0 = never. */
  readonly sendEvery: number;
  /** How often the client promised to send something (ms), 0 = no promise. */
  readonly expectEvery: number;
}

/** Reads `heart-beat: cx,cy`; absent = `0,0`; undefined when malformed. */
export function parseHeartBeat(value: string | undefined): HeartBeatOffer | undefined {
  if (value === undefined) return { send: 0, receive: 0 };
  const match = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!match) return undefined;
  return { send: Number(match[1]), receive: Number(match[2]) };
}

/**
 * STOMP 1.1 "Heart-beating": each direction is the larger of what the sender can do and what
 * the receiver wants, and is off if either side says 0.
 */
export function negotiateHeartBeat(client: HeartBeatOffer, server: HeartBeatOffer): HeartBeatPlan {
  return {
    sendEvery: server.send === 0 || client.receive === 0 ? 0 : Math.max(server.send, client.receive),
    expectEvery: client.send === 0 || server.receive === 0 ? 0 : Math.max(client.send, server.receive),
  };
}

/**
 * Network delay and timer drift make beats late, so silence is tolerated for twice the promised
 * interval (the same margin stompjs and @stomp/stompjs apply on their side) before closing.
 */
export function silenceLimit(plan: HeartBeatPlan): number {
  return plan.expectEvery === 0 ? 0 : plan.expectEvery * 2;
}

export function formatHeartBeat(offer: HeartBeatOffer): string {
  return `${offer.send},${offer.receive}`;
}
