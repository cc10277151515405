import type { ServerResponse } from 'node:http';
import type { EventStore } from '../store/event-store';
import type { EventPage } from '../store/types';
import { joinEventJson } from './event-json';
import { endPooled } from './response-slab';

/**
 * The body of an event page (interface 2.6), byte for byte what JSON.stringify gives for
 * `{status: 'success', data: {numberOfEvents, hasMore, events}}`, copied together from each
 * event's JSON bytes cached by the store instead of re-serialising a hundred events per request.
 */
export function pageBody(store: EventStore, page: EventPage): Buffer {
  const head = `{"status":"success","data":{"numberOfEvents":${page.ids.length},"hasMore":${page.hasMore},"events":[`;
  return joinEventJson(store, page.ids, head, ']}}');
}

/**
 * Writes JSON as express's `res.json` would (same status, headers and bytes) but with no
 * freshness or range logic: a long poll answered 304 to `If-None-Match: *` would hand the client
 * no events ever, so conditional and range headers are ignored and every page is a full 200.
 */
export function sendJson(res: ServerResponse, status: number, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes });
  if (typeof body === 'string') res.end(body);
  else endPooled(res, body);
}

/** Writes an event page (interface 2.6), or 204 when it is empty. */
export function sendPage(res: ServerResponse, store: EventStore, page: EventPage): void {
  if (page.ids.length === 0) {
    res.statusCode = 204;
    res.end();
    return;
  }
  sendJson(res, 200, pageBody(store, page));
}
