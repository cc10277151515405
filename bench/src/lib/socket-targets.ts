import type { FanOutTarget } from './fan-out-run';
import { JSON_TOKEN, LEGACY_TOKEN, jsonTransientMessage, legacyMessage } from './payloads';
import { postBare, postJson, postLegacy } from './posts';
import { connectBare, connectEventStream, connectStomp } from './ws-clients';

/**
 * The WebSocket clients the delivery measures drive (latency, fan-out, control-plane cost), each
 * with the post that reaches every one of them.
 */

/** 'M': of the frames a STOMP server sends (CONNECTED, RECEIPT, ERROR, MESSAGE) only MESSAGE. */
const STOMP_MESSAGE = 0x4d;

/** JSON event-stream clients, fed transient POST /api/message. */
export function jsonStreamTarget(port: number, clients: number): FanOutTarget {
  return {
    name: 'json event-stream',
    clients,
    connect: () => connectEventStream(port, JSON_TOKEN),
    post: (seq) => postJson(port, jsonTransientMessage(seq)),
  };
}

/** Legacy STOMP subscribers, fed NonDurable posts to channel `id`. */
export function stompTarget(port: number, clients: number): FanOutTarget {
  return {
    name: 'legacy STOMP',
    clients,
    connect: () => connectStomp(port, LEGACY_TOKEN),
    // One byte, not a decoded string: the harness checks every one of 100,000 deliveries a second.
    isDelivery: (data) => data[0] === STOMP_MESSAGE,
    post: (seq) => postLegacy(port, 'NonDurable', legacyMessage(seq)),
  };
}

/** A bare baseline's WebSocket clients, posted `body` (the bytes our clients receive). */
export function bareWsTarget(name: string, port: number, clients: number, body: Buffer): FanOutTarget {
  return { name, clients, connect: () => connectBare(port), post: () => postBare(port, body) };
}
