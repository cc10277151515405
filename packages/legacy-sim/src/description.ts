import { ChannelCatalog, type SimulatorDescription, type UserSpec } from '@racedata/core';
import { LISTEN_PATH } from './http/direct-listen';
import { STOMP_PATHS } from './stomp/stomp-options';

export const SUBSCRIPTION_AUTHENTICATE_PATH = '/customerapi/authenticate/subscription';
/** The vendor's older basic-auth endpoint. */
export const BASIC_AUTHENTICATE_PATH = '/authenticate';
export const DURABLE_INJECT_PATH = '/customerapi/channel/{channelId}/Durable';
export const TRANSIENT_INJECT_PATH = '/customerapi/channel/{channelId}/NonDurable';

/** The legacy simulator's built-in user: one user who may read every channel. */
export const LEGACY_USERS: readonly UserSpec[] = [
  { name: 'default', key: 'testuser', secret: 'testpassword', token: 'dGVzdHVzZXI=', channels: '*' },
];

/**
 * The legacy simulator's built-in catalog. The transient names are the vendor's track-signal
 * channels; the durable ones mirror the JSON catalog without the trot/gallop suffix, because a
 * legacy document carries its sport inside the XML.
 */
export const LEGACY_CHANNELS = {
  durable: ['RaceDay', 'StartList', 'Scratchings', 'Result'],
  transient: ['TimeToStart', 'TimeToDef', 'SplitTimes', 'PrelDisqualifiedHorses', 'Last500Meters'],
} as const;

export function legacyChannelCatalog(): ChannelCatalog {
  return ChannelCatalog.fromJSON(LEGACY_CHANNELS, 'built-in legacy channels');
}

/**
 * The legacy simulator as core, the control plane, its documents and the console see it. The
 * transports' order is the order fault-rule errors, the documents and the console list them in.
 */
export const LEGACY_DESCRIPTION: SimulatorDescription = {
  kind: 'legacy',
  transports: [
    { name: 'listen', paths: [LISTEN_PATH], kind: 'poll', faultTarget: true, journalled: true },
    { name: 'stomp', paths: STOMP_PATHS, kind: 'session', faultTarget: true, journalled: true },
    {
      name: 'authenticate',
      paths: [SUBSCRIPTION_AUTHENTICATE_PATH, BASIC_AUTHENTICATE_PATH],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      tokenless: true,
    },
    {
      name: 'inject',
      paths: [DURABLE_INJECT_PATH, TRANSIENT_INJECT_PATH],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      source: 'inject',
    },
  ],
  users: LEGACY_USERS,
  channels: LEGACY_CHANNELS,
};
