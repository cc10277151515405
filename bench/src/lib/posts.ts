import http from 'node:http';
import { httpRequest, type HttpResult } from './http-client';
import { jsonDurableMessage, jsonTransientMessage, legacyXml } from './payloads';

/** One keep-alive agent for every injection, so posting costs the same on each side. */
export const postAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function postJson(port: number, kind: 'durable' | 'transient', seq: number): Promise<HttpResult> {
  return httpRequest({
    port,
    method: 'POST',
    path: '/api/message',
    headers: { 'content-type': 'application/json' },
    body: kind === 'durable' ? jsonDurableMessage(seq) : jsonTransientMessage(seq),
    agent: postAgent,
  });
}

export function postLegacy(port: number, kind: 'Durable' | 'NonDurable', seq: number): Promise<HttpResult> {
  return httpRequest({
    port,
    method: 'POST',
    path: `/customerapi/channel/id/${kind}?payloadKey=bench-${seq}`,
    headers: { 'content-type': 'application/xml' },
    body: legacyXml(seq),
    agent: postAgent,
  });
}

/** The bare baselines forward whatever is posted to them. */
export function postBare(port: number, body: Buffer): Promise<HttpResult> {
  return httpRequest({ port, method: 'POST', path: '/publish', body, agent: postAgent });
}
