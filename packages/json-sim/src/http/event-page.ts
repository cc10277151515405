import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { EventPage, EventStore } from '@racedata/core';

/** JSON text with its UTF-8 byte length. */
export interface JsonText {
  readonly text: string;
  readonly bytes: number;
}

/**
 * The body of an event page (interface 2.6), byte for byte what JSON.stringify gives for
 * `{status: 'success', data: {numberOfEvents, hasMore, events}}`, joined from each event's JSON
 * text cached by the store instead of re-serialising a hundred events per request.
 */
export function pageBody(store: Pick<EventStore, 'jsonTexts'>, page: EventPage): JsonText {
  const { events } = page;
  const texts = new Array<string>(events.length);
  const eventBytes = store.jsonTexts(events, texts);
  const head = `{"status":"success","data":{"numberOfEvents":${events.length},"hasMore":${page.hasMore},"events":[`;
  const tail = ']}}';
  // The envelope is ASCII: one byte per character.
  const commas = Math.max(0, events.length - 1);
  return { text: head + texts.join(',') + tail, bytes: head.length + eventBytes + commas + tail.length };
}

/** If-None-Match / If-Modified-Since: express's `res.send` owns the freshness rules (304). */
export function isConditional(req: IncomingMessage): boolean {
  const headers = req.headers;
  return headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
}

/**
 * Writes JSON text as express's `res.json` would: same status, headers and bytes. A conditional
 * request goes through `res.send`; only express-routed requests can be conditional (the direct
 * read path hands those to express), so `res` is then an express response.
 */
export function sendJsonText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string | JsonText,
): void {
  const text = typeof body === 'string' ? body : body.text;
  if (isConditional(req)) {
    (res as Response).status(status).set('Content-Type', 'application/json').send(text);
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.byteLength(text, 'utf8') : body.bytes;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes });
  // As many bytes as characters: all ASCII, where Latin-1 is the same bytes as UTF-8 and is
  // written as a plain copy instead of being encoded.
  res.end(text, bytes === text.length ? 'latin1' : 'utf8');
}

/** Writes an event page (interface 2.6), or 204 when it is empty. */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  store: Pick<EventStore, 'jsonTexts'>,
  page: EventPage,
): void {
  if (page.events.length === 0) {
    res.statusCode = 204;
    res.end();
    return;
  }
  sendJsonText(req, res, 200, pageBody(store, page));
}
