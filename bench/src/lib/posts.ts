import http from 'node:http';
import { httpRequest, type HttpResult } from './http-client';

/** One keep-alive agent for every injection, so posting costs the same on each side. */
export const postAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Long enough for a simulator under the heaviest load; a post that takes longer is a failure. */
const POST_TIMEOUT_MS = 30_000;

/** A legacy message: the channel it is posted to, its payloadKey and its XML document. */
export interface LegacyMessage {
  readonly channel: string;
  readonly payloadKey: string;
  readonly xml: string;
}

/** POST /api/message with a JSON message (the bench's and the soak's shapes alike). */
export function postJson(port: number, body: string): Promise<HttpResult> {
  return httpRequest({
    port,
    method: 'POST',
    path: '/api/message',
    headers: { 'content-type': 'application/json' },
    body,
    agent: postAgent,
    timeoutMs: POST_TIMEOUT_MS,
  });
}

/** POST /customerapi/channel/<channel>/Durable|NonDurable?payloadKey=... with the XML. */
export function postLegacy(
  port: number,
  kind: 'Durable' | 'NonDurable',
  message: LegacyMessage,
): Promise<HttpResult> {
  return httpRequest({
    port,
    method: 'POST',
    path: `/customerapi/channel/${message.channel}/${kind}?payloadKey=${message.payloadKey}`,
    headers: { 'content-type': 'application/xml' },
    body: message.xml,
    agent: postAgent,
    timeoutMs: POST_TIMEOUT_MS,
  });
}

/** The bare baselines forward whatever is posted to them. */
export function postBare(port: number, body: Buffer): Promise<HttpResult> {
  return httpRequest({ port, method: 'POST', path: '/publish', body, agent: postAgent });
}
