import { randomBytes } from 'node:crypto';
import { UserTable, type Logger, type SimulatorSettings } from '@racedata/core';
import type { CertificationSource, ConsoleAssets, MountedSimulator } from '@racedata/control';
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

/** What the simulator shows besides the client's traffic: the console and the certification. */
export interface CertifyConsole {
  /** The built console, for /_sim/ui; without it the page is 404. */
  readonly consoleAssets?: ConsoleAssets | undefined;
  /** GET /_sim/certification and the console's Certification panel read it. */
  readonly certification?: CertificationSource | undefined;
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
  shown: CertifyConsole = {},
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
    return createJsonSimulator(settings, { users, logger, ...consoleDeps(shown) }).mount();
  }
  const users = UserTable.fromJSON(spec, legacyChannelCatalog(), 'certify user');
  const beat = timings.stompHeartBeatMs;
  return createLegacySimulator(settings, {
    users,
    logger,
    ...consoleDeps(shown),
    stomp: { heartBeat: { send: beat, receive: beat } },
  }).mount();
}

function consoleDeps(shown: CertifyConsole): CertifyConsole {
  return {
    ...(shown.consoleAssets && { consoleAssets: shown.consoleAssets }),
    ...(shown.certification && { certification: shown.certification }),
  };
}
