import { jsonDurableMessage, postJson, postLegacy } from '../../harness/payloads';
import type { SimKind } from '../../harness/processes';

/** What a test posts first: a durable message of the simulator's kind (seq makes each one new). */
export const postMessage = (kind: SimKind, port: number, seq: number) =>
  kind === 'json' ? postJson(port, jsonDurableMessage(seq)) : postLegacy(port, 'Durable', seq);

export const POST_NAME = {
  json: 'POST /api/message',
  legacy: 'POST /customerapi/channel/id/Durable',
} as const;
