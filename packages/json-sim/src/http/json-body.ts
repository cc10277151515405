import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { jsonDepthExceeds, MAX_JSON_DEPTH, unsupportedCharset } from '@racedata/core';
import { jsonSimError } from '../errors';

/**
 * The JSON body parser of every POST: any content type (`curl -d` sends form encoding by
 * default), at most `limit` bytes, any JSON value (the route says what it wanted, rather than
 * "not valid JSON" for a valid `"x"` or `null`), and no deeper than MAX_JSON_DEPTH, checked on
 * the raw bytes before the parser sees them.
 */
export function jsonBody(limit: number): RequestHandler {
  return express.json({ limit, type: () => true, strict: false, verify: refuseDeepJson });
}

function refuseDeepJson(_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string): void {
  if (jsonDepthExceeds(utf8Of(body, encoding), MAX_JSON_DEPTH)) {
    throw jsonSimError(
      'JSON_TOO_DEEP',
      `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (the limit)`,
    );
  }
}

// The body parser accepts any utf-* charset; the depth scan reads UTF-8.
function utf8Of(body: Buffer, encoding: string): Uint8Array {
  const name = encoding.toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return body;
  let text: string;
  try {
    text = new TextDecoder(name).decode(body);
  } catch (err) {
    throw unsupportedCharset(encoding, 'UTF-8 JSON', { cause: err });
  }
  return Buffer.from(text, 'utf8');
}
