import type { SimulatorDescription, UserSpec } from '@racedata/core';

/**
 * A made-up third simulator, so core's tests need neither real one: its transports have names
 * and paths no real simulator has, which proves core takes every transport from the description.
 */
export const SAMPLE_CHANNELS = {
  durable: ['RaceDayTrot', 'RaceDayGallop', 'StartListTrot', 'ResultTrot'],
  transient: ['TimeToStartTrot', 'SplitTimesTrot', 'Last500MetersTrot'],
} as const;

export const SAMPLE_USERS: readonly UserSpec[] = [
  {
    name: 'default',
    key: 'testuser',
    secret: 'testpassword',
    token: 'dGVzdHVzZXI=',
    channels: ['RaceDayTrot', 'StartListTrot', 'ResultTrot', 'TimeToStartTrot'],
  },
  { name: 'all channels', key: 'alluser', secret: 'allpassword', token: 'YWxsdXNlcg==', channels: '*' },
];

export const SAMPLE_DESCRIPTION: SimulatorDescription = {
  kind: 'json',
  transports: [
    { name: 'pull', paths: ['/feed/pull'], kind: 'poll', faultTarget: true, journalled: true },
    {
      name: 'ticker',
      paths: ['/feed/ticker', '/v2/ticker'],
      kind: 'session',
      faultTarget: true,
      journalled: true,
    },
    {
      name: 'login',
      paths: ['/feed/login'],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      tokenless: true,
    },
    {
      name: 'drop-in',
      paths: ['/feed/lane/{lane}/In'],
      kind: 'request',
      faultTarget: true,
      journalled: false,
      source: 'post',
    },
    { name: 'status-page', paths: ['/feed/status'], kind: 'request', faultTarget: false, journalled: false },
  ],
  users: SAMPLE_USERS,
  channels: SAMPLE_CHANNELS,
};
