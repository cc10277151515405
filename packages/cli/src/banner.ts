import type { AddressInfo } from 'node:net';
import type { ChannelCatalog, SimulatorKind, UserTable } from '@racedata/core';

function displayHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return address.includes(':') ? `[${address}]` : address;
}

/** The URL a user on this machine types to reach the address. */
export function displayBase(address: AddressInfo): string {
  return `http://${displayHost(address.address)}:${address.port}`;
}

const TITLES: Record<SimulatorKind, string> = {
  json: 'JSON simulator',
  legacy: 'legacy XML simulator',
};

const ENDPOINTS: Record<SimulatorKind, (base: string, ws: string) => string[]> = {
  json: (base, ws) => [
    `POST ${base}/customerapi/authenticate/subscription`,
    `GET  ${base}/customerapi/events`,
    `GET  ${base}/customerapi/filtered-events`,
    `WS   ${ws}/customerapi/event-stream`,
    `POST ${base}/api/message`,
  ],
  legacy: (base, ws) => [
    `POST ${base}/customerapi/authenticate/subscription   (or POST ${base}/authenticate with Basic)`,
    `GET  ${base}/customerapi/channels/listen`,
    `WS   ${ws}/api/v1/channels/connect   (STOMP; also /customerapi/channels/connect)`,
    `     subscribe to /api/v1/channels/user/topic/publish (or /customerapi/channels/user/topic/publish)`,
    `POST ${base}/customerapi/channel/id/Durable?payloadKey=K   (and /NonDurable)`,
  ],
};

/** Who can reach the address: said at start, since the control plane can reset, inject and move the clock. */
function reachLine(address: string): string | undefined {
  if (address === '127.0.0.1' || address === '::1') {
    return `  reachable from this machine only; --host 0.0.0.0 (HOST=0.0.0.0) opens it, control plane /_sim/* included, to the network`;
  }
  if (address === '0.0.0.0' || address === '::') {
    return `  reachable on every interface: anyone who reaches this port can use it, control plane /_sim/* included (CONTROL_TOKEN requires a token there)`;
  }
  return undefined;
}

/** What a user needs at start: where it listens and which users, tokens and channels exist. */
export function startBanner(
  kind: SimulatorKind,
  address: AddressInfo,
  users: UserTable,
  catalog: ChannelCatalog,
): string {
  const base = displayBase(address);
  const ws = base.replace(/^http/, 'ws');
  const lines = [`racedata-sim: ${TITLES[kind]} listening on ${base} (bound to ${address.address})`];
  const reach = reachLine(address.address);
  if (reach !== undefined) lines.push(reach);
  for (const endpoint of ENDPOINTS[kind](base, ws)) lines.push(`  ${endpoint}`);
  lines.push('  users:');
  const all = catalog.names().length;
  for (const user of users.users) {
    lines.push(`    ${user.name}: key ${user.key}  secret ${user.secret}  token ${user.token}`);
    const channels = [...user.channels];
    const label = channels.length === all ? `all ${all} channels: ` : '';
    lines.push(`      channels: ${label}${channels.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
