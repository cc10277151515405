import { CLOSE_GRACE_MS, DEFAULT_PARSER_LIMITS, type StompParserLimits } from '@racedata/core';
import type { HeartBeatOffer } from './stomp-negotiation';

/** Where the STOMP endpoint listens: production path and the vendor simulator's /api/v1 path. */
export const STOMP_PATHS: readonly string[] = ['/customerapi/channels/connect', '/api/v1/channels/connect'];

/** Destinations that receive transient messages; the bare one is Spring's user-destination form. */
export const PUBLISH_DESTINATIONS: readonly string[] = [
  '/customerapi/channels/user/topic/publish',
  '/api/v1/channels/user/topic/publish',
  '/user/topic/publish',
];

export interface StompOptions {
  /**
   * What the server offers in CONNECTED `heart-beat`: it can send as often as every `send` ms
   * and wants a beat at least every `receive` ms. Clients asking for more frequent beats than
   * this get beats at these rates instead (the larger interval wins, STOMP 1.1).
   */
  readonly heartBeat: HeartBeatOffer;
  readonly limits: StompParserLimits;
  /** Subscriptions one session may hold; one more gets an ERROR and the close. */
  readonly maxSubscriptions: number;
  /** Open sessions one user may hold; one more gets an ERROR as soon as it opens. */
  readonly maxSessionsPerUser: number;
  /** Unsent bytes a slow consumer may build up before it is dropped. */
  readonly maxBufferedBytes: number;
  readonly destinations: readonly string[];
  readonly serverName: string;
  /** A socket that sends no CONNECT within this many ms gets an ERROR and is closed. */
  readonly connectTimeoutMs: number;
  /** Real-time grace for a closing socket's handshake before it is cut. */
  readonly closeGraceMs: number;
}

export const DEFAULT_STOMP_OPTIONS: StompOptions = {
  heartBeat: { send: 1000, receive: 1000 },
  limits: DEFAULT_PARSER_LIMITS,
  maxSubscriptions: 100,
  maxSessionsPerUser: 100,
  maxBufferedBytes: 4 * 1024 * 1024,
  destinations: PUBLISH_DESTINATIONS,
  serverName: 'racedata-legacy-sim/0.2.0',
  connectTimeoutMs: 10_000,
  closeGraceMs: CLOSE_GRACE_MS,
};
