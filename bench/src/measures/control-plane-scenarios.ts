import type { BenchContext } from '../context';
import type { ChildServer } from '../lib/child-server';
import { FanOutClients, type FanOutRound } from '../lib/fan-out-run';
import { jsonDurableMessage } from '../lib/payloads';
import { PollFanOut } from '../lib/poll-fan-out';
import { postJson } from '../lib/posts';
import { AUTH } from '../lib/read-store';
import { jsonStreamTarget, stompTarget } from '../lib/socket-targets';
import type { SimKind } from '../lib/simulator-process';

/** The deliveries control-plane-cost drives on both sides: one kind of client each. */

/** One side's clients in a delivery scenario. */
export interface Deliveries {
  connect(): Promise<void>;
  round(ms: number, window: number): Promise<FanOutRound>;
  close(): void;
}

export interface DeliveryScenario {
  readonly label: string;
  readonly kind: SimKind;
  clients(ctx: BenchContext): number;
  /** `from`: the store's last eventId (JSON polls wait for what comes after it). */
  open(server: ChildServer, clients: number, from: number): Deliveries;
}

export const JSON_STREAM: DeliveryScenario = {
  label: 'JSON: transient POST /api/message -> event-stream WebSocket clients',
  kind: 'json',
  clients: (ctx) => ctx.config.controlPlane.streamClients,
  open: (server, clients) => new FanOutClients(jsonStreamTarget(server.port, clients)),
};

export const JSON_POLLS: DeliveryScenario = {
  label: 'JSON: durable POST /api/message -> held GET /customerapi/events polls',
  kind: 'json',
  clients: (ctx) => ctx.config.controlPlane.pollClients,
  open: (server, clients, from) =>
    new PollFanOut({
      name: 'json /events polls',
      server,
      clients,
      headers: () => AUTH,
      pathAfter: (id) => `/customerapi/events?lastEventId=${id}`,
      from,
      post: (seq) => postJson(server.port, jsonDurableMessage(seq)),
    }),
};

export const LEGACY_STOMP: DeliveryScenario = {
  label: 'legacy: POST NonDurable -> STOMP subscribers',
  kind: 'legacy',
  clients: (ctx) => ctx.config.controlPlane.streamClients,
  open: (server, clients) => new FanOutClients(stompTarget(server.port, clients)),
};
