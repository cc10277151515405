/**
 * The four kinds of client a race day is consumed with, each a real one over real sockets:
 * a JSON long poller following lastEventId, an event-stream WebSocket, a legacy long poller and
 * a STOMP subscriber (@stomp/stompjs over ws, the token on the upgrade).
 */
import WebSocket from 'ws';
import type { Client as StompJsClient } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import { closeAfterTest } from '@racedata/test-support';

// @stomp/stompjs's "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompJsClient };

export interface JsonEvent {
  eventId: number;
  channel: string;
  date: string;
  trackId?: number;
  raceNr?: number;
  startNr?: number;
  payload: Record<string, unknown>;
  created_at: string;
}

/** Resolves once `received()` has `count` items; fails at its own deadline with what it saw. */
export async function until<T>(
  what: string,
  received: () => readonly T[],
  count: number,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (received().length < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${received().length} of ${count} within ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls /events from `after`, as a client following lastEventId does, until stopped. */
export function jsonPoller(base: string, token: string, after: number): { events: JsonEvent[] } {
  const state = { events: [] as JsonEvent[], stopped: false, last: after };
  const controller = new AbortController();
  closeAfterTest({
    close: () => {
      state.stopped = true;
      controller.abort();
    },
  });
  void (async () => {
    while (!state.stopped) {
      const res = await fetch(`${base}/customerapi/events?lastEventId=${state.last}&limit=1000`, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      }).catch(() => undefined);
      if (!res || res.status !== 200) continue;
      const page = (await res.json()) as { data: { events: JsonEvent[] } };
      state.events.push(...page.data.events);
      state.last = page.data.events.at(-1)?.eventId ?? state.last;
    }
  })();
  return state;
}

/** Every event stored after `after`, page by page (history or catching up). */
export async function readEvents(base: string, token: string, after = 0): Promise<JsonEvent[]> {
  const out: JsonEvent[] = [];
  for (let last = after; ;) {
    const res = await fetch(`${base}/customerapi/events?lastEventId=${last}&limit=10000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const page = (await res.json()) as { data: { events: JsonEvent[]; hasMore: boolean } };
    out.push(...page.data.events);
    last = out.at(-1)?.eventId ?? last;
    if (!page.data.hasMore) return out;
  }
}

/** Long-polls the legacy listen endpoint until stopped; the XML documents in order. */
export function legacyPoller(base: string, token: string): { documents: string[] } {
  const state = { documents: [] as string[], stopped: false };
  const controller = new AbortController();
  closeAfterTest({
    close: () => {
      state.stopped = true;
      controller.abort();
    },
  });
  void (async () => {
    while (!state.stopped) {
      const res = await fetch(`${base}/customerapi/channels/listen`, {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      }).catch(() => undefined);
      if (!res) continue;
      if (res.status === 200) state.documents.push(JSON.parse(await res.text()) as string);
      else await res.arrayBuffer();
    }
  })();
  return state;
}

export interface StreamData {
  channel: string;
  date: string;
  trackId?: number;
  raceNr?: number;
  startNr?: number;
  payload: Record<string, unknown>;
}

/** An authenticated event-stream client; resolves once Authenticated, then collects Data. */
export async function streamClient(wsBase: string, token: string): Promise<{ data: StreamData[] }> {
  const ws = new WebSocket(`${wsBase}/customerapi/event-stream`);
  closeAfterTest({ close: () => ws.terminate() });
  const state = { data: [] as StreamData[] };
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { type: string; data?: StreamData };
      if (message.type === 'Connection') ws.send(token);
      if (message.type === 'Authenticated') resolve();
      if (message.type === 'Data' && message.data) state.data.push(message.data);
    });
  });
  return state;
}

export interface StompBody {
  channel: string;
  payloadKey: string | null;
  payload: string;
}

/** A STOMP subscriber of the publish destination; resolves once the subscription is confirmed. */
export async function stompClient(wsBase: string, token: string): Promise<{ messages: StompBody[] }> {
  const state = { messages: [] as StompBody[] };
  const client = new Client({
    webSocketFactory: () =>
      new WebSocket(`${wsBase}/api/v1/channels/connect`, { headers: { authorization: `Bearer ${token}` } }),
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    reconnectDelay: 0,
    debug: () => undefined,
  });
  closeAfterTest({ close: () => client.deactivate() });
  await new Promise<void>((resolve) => {
    client.onConnect = () => {
      client.watchForReceipt('subscribed', () => resolve());
      client.subscribe(
        '/api/v1/channels/user/topic/publish',
        (message) => state.messages.push(JSON.parse(message.body) as StompBody),
        { receipt: 'subscribed' },
      );
    };
    client.activate();
  });
  return state;
}
