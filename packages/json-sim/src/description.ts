import { ChannelCatalog, type SimulatorDescription, type UserSpec } from '@racedata/core';
import { EVENTS_PATH, FILTERED_EVENTS_PATH } from './http/read-path';
import { EVENT_STREAM_PATH } from './ws/event-stream';

export const AUTHENTICATE_PATH = '/customerapi/authenticate/subscription';
export const MESSAGE_PATH = '/api/message';

/** The JSON simulator's built-in users (README, "Users and channels"). */
export const JSON_USERS: readonly UserSpec[] = [
  {
    name: 'default',
    key: 'testuser',
    secret: 'testpassword',
    token: 'dGVzdHVzZXI=',
    channels: [
      'RaceDayTrot',
      'StartListTrot',
      'ResultTrot',
      'RaceDayGallop',
      'Last500MetersTrot',
      'TimeToStartTrot',
      'SplitTimesTrot',
    ],
  },
  { name: 'all channels', key: 'alluser', secret: 'allpassword', token: 'YWxsdXNlcg==', channels: '*' },
];

/** The JSON simulator's built-in catalog (README, "Users and channels"). */
export const JSON_CHANNELS = {
  durable: [
    'RaceDayTrot',
    'RaceDayGallop',
    'StartListTrot',
    'StartListGallop',
    'ResultTrot',
    'ResultGallop',
    'ScratchingsTrot',
    'ScratchingsGallop',
  ],
  transient: [
    'TimeToStartTrot',
    'TimeToStartGallop',
    'TimeToDefTrot',
    'SplitTimesTrot',
    'SplitTimesGallop',
    'PrelDisqualifiedHorsesTrot',
    'Last500MetersTrot',
    'Last500MetersGallop',
  ],
} as const;

export function jsonChannelCatalog(): ChannelCatalog {
  return ChannelCatalog.fromJSON(JSON_CHANNELS, 'built-in JSON channels');
}

/**
 * The JSON simulator as core, the control plane, its documents and the console see it. The
 * transports' order is the order fault-rule errors, the documents and the console list them in.
 */
export const JSON_DESCRIPTION: SimulatorDescription = {
  kind: 'json',
  transports: [
    { name: 'events', paths: [EVENTS_PATH], kind: 'poll', faultTarget: true, journalled: true },
    {
      name: 'filtered-events',
      paths: [FILTERED_EVENTS_PATH],
      kind: 'request',
      faultTarget: true,
      journalled: true,
    },
    {
      name: 'event-stream',
      paths: [EVENT_STREAM_PATH],
      kind: 'session',
      faultTarget: true,
      journalled: true,
    },
    {
      name: 'authenticate',
      paths: [AUTHENTICATE_PATH],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      tokenless: true,
    },
    {
      name: 'message',
      paths: [MESSAGE_PATH],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      source: 'post',
    },
  ],
  users: JSON_USERS,
  channels: JSON_CHANNELS,
};
