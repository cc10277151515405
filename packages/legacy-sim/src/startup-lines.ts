import type { AddressInfo } from 'node:net';
import type { ChannelCatalog, UserTable } from '@racedata/core';
import { STOMP_PATHS, PUBLISH_DESTINATIONS } from './stomp/stomp-options';

/** What the CLI prints at start: endpoints, then each user's key, token and channels. */
export function legacyStartupLines(
  address: AddressInfo,
  users: UserTable,
  catalog: ChannelCatalog,
): string[] {
  const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.address;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const ws = base.replace(/^http/, 'ws');
  return [
    `legacy simulator listening on ${base}`,
    `  listen:    GET  ${base}/customerapi/channels/listen`,
    `  inject:    POST ${base}/customerapi/channel/{id|channel}/Durable|NonDurable?payloadKey=K`,
    `  stomp:     ${STOMP_PATHS.map((p) => ws + p).join(' or ')}`,
    `  subscribe: ${PUBLISH_DESTINATIONS.join(' or ')}`,
    `  channels:  durable ${catalog.names('durable').join(', ')}; transient ${catalog.names('transient').join(', ')}`,
    ...users.users.map(
      (user) =>
        `  user ${user.name}: key ${user.key}, secret ${user.secret}, token ${user.token}, ` +
        `channels: ${[...user.channels].join(', ')}`,
    ),
  ];
}
