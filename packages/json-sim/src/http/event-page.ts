import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { EventPage, EventStore } from '@racedata/core';

/**
 * The body of an event page (interface 2.6), byte for byte what JSON.stringify gives for
 * `{status: 'success', data: {numberOfEvents, hasMore, events}}`, copied together from each
 * event's JSON bytes cached by the store instead of re-serialising a hundred events per request.
 */
export function pageBody(store: Pick<EventStore, 'joinJson'>, page: EventPage): Buffer {
  const head = `{"status":"success","data":{"numberOfEvents":${page.events.length},"hasMore":${page.hasMore},"events":[`;
  return store.joinJson(page.events, head, ']}}');
}

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
  store: Pick<EventStore, 'joinJson'>,
  page: EventPage,
): void {
  if (page.events.length === 0) {
    res.statusCode = 204;
    res.end();
    return;
  }
  sendJson(req, res, 200, pageBody(store, page));
}
