import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from '@racedata/core';
import type { LegacyBus, LegacyDelivery } from '../legacy-bus';
import { answerJson, sendError } from './error-middleware';
import { payloadKeyFrom } from './inject-routes';
import { decodeXmlBodyWithBytes } from './xml-body';

export interface DirectInjectDeps {
  /** Where every request this path does not take goes, untouched. */
  readonly others: RequestListener;
  readonly bus: LegacyBus;
  readonly maxBodyBytes: number;
  readonly logger: Logger;
}

/**
 * The injection URL as express's route would see it with nothing to decode: the canonical
 * spelling, a channel with no percent-escape, no trailing slash, no fragment.
 */
const INJECTION = /^\/customerapi\/channel\/([^/?#%]+)\/(Durable|NonDurable)(?:\?([^#]*))?$/;

/**
 * POST /customerapi/channel/{channelId}/Durable and /NonDurable served without express. A feed
 * posts these many times a second, and at that rate express's code for each post (its request
 * and response set-up, router, query getter, body-parser) rarely gets hot enough to be optimised,
 * and a post's own CPU showed in the CPU per delivery of a fan-out to a thousand STOMP sessions
 * (the fan-out bench). Only a plain post qualifies: the canonical URL, a Content-Length within
 * the limit, no Content-Encoding or Transfer-Encoding. Anything else goes to `others` before a
 * byte of the body is read, and express answers it as before (inject-routes.ts); both paths
 * answer with the same bytes and errors.
 */
export function directInject(deps: DirectInjectDeps): RequestListener {
  const { others, bus, maxBodyBytes, logger } = deps;
  return (req, res) => {
    const match = req.method === 'POST' ? INJECTION.exec(req.url ?? '') : null;
    const length = match === null ? undefined : plainBodyLength(req, maxBodyBytes);
    if (match === null || length === undefined) {
      others(req, res);
      return;
    }
    const [, channel = '', kind, query] = match;
    const delivery: LegacyDelivery = kind === 'Durable' ? 'durable' : 'transient';
    readBody(req, length, (err, body) => {
      if (err !== undefined || body === undefined) {
        sendError(err, req, res, logger);
        return;
      }
      inject(bus, req, res, logger, { channel, delivery, query, body });
    });
  };
}

interface Injection {
  readonly channel: string;
  readonly delivery: LegacyDelivery;
  readonly query: string | undefined;
  readonly body: Buffer;
}

/** The route's handler (inject-routes.ts), in its order: decode, payloadKey, publish, answer. */
async function inject(
  bus: LegacyBus,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
  i: Injection,
) {
  try {
    const document = decodeXmlBodyWithBytes(i.body, req.headers['content-type']);
    const payloadKey = payloadKeyFrom(parseQuery(i.query ?? '').payloadKey);
    const data = await bus.publishYielding({
      ...document,
      channel: i.channel,
      delivery: i.delivery,
      payloadKey,
    });
    answerJson(res, 200, { status: 'success', data });
  } catch (err) {
    sendError(err, req, res, logger);
  }
}

/** The body's length when the post is plain (see directInject), else undefined. */
function plainBodyLength(req: IncomingMessage, maxBodyBytes: number): number | undefined {
  const { headers } = req;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined)
    return undefined;
  const length = headers['content-length'];
  if (length === undefined || !/^\d{1,15}$/.test(length)) return undefined;
  const bytes = Number(length);
  return bytes <= maxBodyBytes ? bytes : undefined;
}

/** What express's body reader answers a client that hangs up mid-body with (a 400). */
function aborted(expected: number, received: number) {
  return Object.assign(new Error('request aborted'), {
    ...{ status: 400, statusCode: 400, expose: true, type: 'request.aborted' },
    ...{ code: 'ECONNABORTED', expected, length: expected, received },
  });
}

/**
 * The body, whole. Node's parser ends it at its Content-Length; a client that hangs up first
 * gets express's 'request aborted', and no part of the body reaches the bus.
 *
 * Each chunk is copied as it arrives into a buffer of the announced length, rather than all of
 * them at the end: the pages a megabyte body needs are touched a chunk per turn of the event
 * loop, not in one turn that every other request waits for. The copy is the buffer's own memory,
 * as express's reader gives: a chunk is a view into the socket's read, which a queued document
 * would otherwise keep alive with the request's headers.
 */
function readBody(req: IncomingMessage, expected: number, done: (err: unknown, body?: Buffer) => void) {
  const body = Buffer.allocUnsafeSlow(expected);
  let received = 0;
  let finished = false;
  const finish = (err: unknown, whole?: Buffer) => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', onError);
    done(err, whole);
  };
  const onData = (chunk: Buffer) => {
    // The parser stops at Content-Length; the bound only keeps a copy inside the buffer.
    received += chunk.copy(body, received);
  };
  const onEnd = () => finish(undefined, received === expected ? body : body.subarray(0, received));
  const onAborted = () => finish(aborted(expected, received));
  const onError = (err: unknown) => finish(err);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', onError);
}
