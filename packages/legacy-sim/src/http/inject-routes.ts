import express, { type RequestHandler } from 'express';
import type { LegacyBus, LegacyDelivery } from '../legacy-bus';
import { legacySimError } from '../errors';
import type { LegacyDocument } from '../legacy-document';
import { decodeXmlBodyWithBytes } from './xml-body';

export interface InjectDeps {
  bus: LegacyBus;
  maxBodyBytes: number;
}

/** Keys identify a message (a race id, a timestamp); anything longer is a mistake. */
export const MAX_PAYLOAD_KEY_CHARS = 1024;

/** The payloadKey of an injection from its query's parsed `payloadKey` (express's simple parser). */
export function payloadKeyFrom(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw legacySimError('BAD_REQUEST', 'payloadKey must be given at most once');
  if (value.length > MAX_PAYLOAD_KEY_CHARS) {
    throw legacySimError(
      'BAD_REQUEST',
      `payloadKey is ${value.length} characters long; at most ${MAX_PAYLOAD_KEY_CHARS} are accepted`,
    );
  }
  return value;
}

/**
 * POST /customerapi/channel/{channelId}/Durable and /NonDurable (interface 4.6). The body is
 * read raw whatever its content type: the vendor's own example posts XML labelled
 * application/json. payloadKey is optional, as in that example. The common case of these posts is
 * served without express by direct-inject.ts, with the same answers.
 */
export function injectRoute(delivery: LegacyDelivery, deps: InjectDeps): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: deps.maxBodyBytes }),
    async (req, res) => {
      const body: unknown = req.body;
      const document: LegacyDocument = Buffer.isBuffer(body)
        ? decodeXmlBodyWithBytes(body, req.headers['content-type'])
        : { xml: '' };
      // Express 5 hands a rejection to the error middleware, as it does a throw.
      const result = await deps.bus.publishYielding({
        ...document,
        channel: String(req.params.channelId),
        delivery,
        payloadKey: payloadKeyFrom(req.query.payloadKey),
      });
      res.json({ status: 'success', data: result });
    },
  ];
}
