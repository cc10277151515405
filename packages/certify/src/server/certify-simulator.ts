import { randomBytes } from 'node:crypto';
import { UserTable, type Logger, type SimulatorSettings } from '@racedata/core';
import type { MountedSimulator } from '@racedata/control';
import { createJsonSimulator, jsonChannelCatalog } from '@racedata/json-sim';
import { createLegacySimulator, legacyChannelCatalog } from '@racedata/legacy-sim';
import type { CertifyTimings } from '../types';

/** The one user a certification knows: the client authenticates as it, with a fresh secret each run. */
export interface CertifiedUser {
  readonly key: string;
  readonly secret: string;
  /** The user's fixed token: random, so only authenticating yields a token that works. */
  readonly fixedToken: string;
}

export const CERTIFIED_KEY = 'certify-client';

export function newCertifiedUser(): CertifiedUser {
  return {
    key: CERTIFIED_KEY,
    secret: randomBytes(18).toString('base64url'),
    fixedToken: randomBytes(18).toString('base64url'),
  };
}

/**
 * A simulator of the suite's kind with certify timings, mounted (it opens no port of its own):
 * JWTs so tokens can expire, session lines on for the traffic log, every channel for the user.
 */
export function mountCertifySimulator(
  kind: 'json' | 'legacy',
  timings: CertifyTimings,
  user: CertifiedUser,
  logger: Logger,
): MountedSimulator {
  const settings: Partial<SimulatorSettings> = {
    longPollTimeoutMs: timings.longPollTimeoutMs,
    wsPingIntervalMs: timings.pingIntervalMs,
    wsAuthTimeoutMs: timings.authTimeoutMs,
    tokenMode: 'jwt',
    tokenTtlSeconds: timings.tokenTtlSeconds,
    logRequests: true,
    sandboxMax: 0,
  };
  const spec = [
    { name: 'certified', key: user.key, secret: user.secret, token: user.fixedToken, channels: '*' },
  ];
  if (kind === 'json') {
    const users = UserTable.fromJSON(spec, jsonChannelCatalog(), 'certify user');
    return createJsonSimulator(settings, { users, logger }).mount();
  }
  const users = UserTable.fromJSON(spec, legacyChannelCatalog(), 'certify user');
  const beat = timings.stompHeartBeatMs;
  return createLegacySimulator(settings, {
    users,
    logger,
    stomp: { heartBeat: { send: beat, receive: beat } },
  }).mount();
}
