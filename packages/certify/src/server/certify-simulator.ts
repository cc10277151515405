import { randomBytes } from 'node:crypto';
import { ChannelCatalog, UserTable, type Logger, type SimulatorSettings } from '@racedata/core';
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

/**
 * Channels production does not have yet: the certify simulator adds them to its catalog, so
 * tolerates-unknown can send a message on a channel the client cannot know. The certified user
 * sees every channel, these included.
 */
export const UNKNOWN_CHANNELS = {
  jsonDurable: 'TrackConditionsTrot',
  jsonTransient: 'WinOddsTrot',
  legacy: 'WinOdds',
} as const;

function withUnknownChannels(
  catalog: ChannelCatalog,
  durable: string[],
  transient: string[],
): ChannelCatalog {
  const defs = catalog.list();
  return ChannelCatalog.fromJSON(
    {
      durable: [...defs.filter((d) => d.kind === 'durable').map((d) => d.name), ...durable],
      transient: [...defs.filter((d) => d.kind === 'transient').map((d) => d.name), ...transient],
    },
    'certify channels',
  );
}

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
  /** The folder of README.md, CHANGELOG.md and docs/: the pages the console links, at /_sim/docs/. */
  readonly docsRoot?: string | undefined;
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
    const catalog = withUnknownChannels(
      jsonChannelCatalog(),
      [UNKNOWN_CHANNELS.jsonDurable],
      [UNKNOWN_CHANNELS.jsonTransient],
    );
    const users = UserTable.fromJSON(spec, catalog, 'certify user');
    return createJsonSimulator(settings, { users, catalog, logger, ...consoleDeps(shown) }).mount();
  }
  // Legacy delivery is chosen by the injection's URL, not the channel's kind (decisions.md).
  const catalog = withUnknownChannels(legacyChannelCatalog(), [], [UNKNOWN_CHANNELS.legacy]);
  const users = UserTable.fromJSON(spec, catalog, 'certify user');
  const beat = timings.stompHeartBeatMs;
  return createLegacySimulator(settings, {
    users,
    catalog,
    logger,
    ...consoleDeps(shown),
    stomp: { heartBeat: { send: beat, receive: beat } },
  }).mount();
}

function consoleDeps(shown: CertifyConsole): CertifyConsole {
  return {
    ...(shown.consoleAssets && { consoleAssets: shown.consoleAssets }),
    ...(shown.docsRoot !== undefined && { docsRoot: shown.docsRoot }),
    ...(shown.certification && { certification: shown.certification }),
  };
}
