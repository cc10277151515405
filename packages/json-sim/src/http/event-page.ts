import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { EventPage, EventStore, StoredEvent } from '@racedata/core';

/**
 * The body of an event page (interface 2.6), byte for byte what JSON.stringify gives for
 * `{status: 'success', data: {numberOfEvents, hasMore, events}}`, copied together from each
 * event's JSON bytes cached by the store instead of re-serialising a hundred events per request.
 */
export function pageBody(store: Pick<EventStore, 'jsonBytes'>, page: EventPage): Buffer {
  const { events } = page;
  const parts = new Array<Buffer>(events.length);
  let size = 0;
  for (let i = 0; i < events.length; i++) {
    const part = store.jsonBytes(events[i] as StoredEvent);
    parts[i] = part;
    size += part.length;
  }
  // The envelope is ASCII: one byte per character.
  const head = `{"status":"success","data":{"numberOfEvents":${events.length},"hasMore":${page.hasMore},"events":[`;
  const body = Buffer.allocUnsafe(head.length + size + Math.max(0, events.length - 1) + PAGE_TAIL.length);
  let at = body.write(head, 0, 'latin1');
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) body[at++] = COMMA;
    const part = parts[i] as Buffer;
    // TypedArray#set is one native copy; Buffer#copy adds a JavaScript wrapper per call.
    body.set(part, at);
    at += part.length;
  }
  body.write(PAGE_TAIL, at, 'latin1');
  return body;
}

const COMMA = 0x2c;
const PAGE_TAIL = ']}}';

/** If-None-Match / If-Modified-Since: express's `res.send` owns the freshness rules (304). */
export function isConditional(req: IncomingMessage): boolean {
  const headers = req.headers;
  return headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
}

/**
 * Writes JSON as express's `res.json` would: same status, headers and bytes. A conditional
 * request goes through `res.send`; only express-routed requests can be conditional (the direct
 * read path hands those to express), so `res` is then an express response.
 */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | Buffer,
): void {
  if (isConditional(req)) {
    // A string, so express labels it `charset=utf-8` exactly as res.json does.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    (res as Response).status(status).set('Content-Type', 'application/json').send(text);
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes });
  res.end(body);
}

/** Writes an event page (interface 2.6), or 204 when it is empty. */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  store: Pick<EventStore, 'jsonBytes'>,
  page: EventPage,
): void {
  if (page.events.length === 0) {
    res.statusCode = 204;
    res.end();
    return;
  }
  sendJson(req, res, 200, pageBody(store, page));
}
