import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger, TokenService, User } from '@racedata/core';
import { sendError } from './error-response';
import { sendPage } from './event-page';
import type { EventsEndpoint, EventsQuery } from './events-route';
import { filteredPage, type FilteredEventsDeps } from './filtered-events-route';
import type { Query } from './query-params';

export const EVENTS_PATH = '/customerapi/events';
export const FILTERED_EVENTS_PATH = '/customerapi/filtered-events';

export interface DirectReadsDeps {
  app: Express;
  tokens: TokenService;
  events: EventsEndpoint;
  filtered: FilteredEventsDeps;
  logger: Logger;
}

/**
 * The server's request listener: the two read endpoints clients hammer are answered here,
 * without express's per-request machinery (request and response prototypes, router layer
 * matching, the middleware chain), by the same endpoint code as the express routes. Only a
 * clean GET qualifies: exactly /customerapi/events or /customerapi/filtered-events, a valid
 * token, valid parameters; conditional and range headers are ignored on both paths. Everything
 * else, errors included, goes to the express app untouched (nothing has been read from or
 * written to it yet), which answers it as it always has; the bytes of a success are the same
 * on both paths.
 */
export function directReads(deps: DirectReadsDeps): RequestListener {
  const { app, tokens, events, filtered, logger } = deps;
  // The parser express itself uses for req.query.
  const parseQuery = app.get('query parser fn') as (text: string) => Query;

  // After validation only a broken invariant can throw; answered as the error middleware does.
  const fail = (err: unknown, req: IncomingMessage, res: ServerResponse): void => {
    sendError(err, res, logger, { method: req.method, path: pathOf(req.url ?? '') });
  };

  return (req, res) => {
    const url = req.url ?? '';
    const path = pathOf(url);
    if (
      req.method !== 'GET' ||
      (path !== EVENTS_PATH && path !== FILTERED_EVENTS_PATH) ||
      url.includes('#')
    ) {
      app(req, res);
      return;
    }
    let user: User;
    let query: Query;
    let eventsQuery: EventsQuery | undefined;
    try {
      user = tokens.verifyAuthorization(req.headers.authorization);
      query = parseQuery(url.length > path.length ? url.slice(path.length + 1) : '');
      if (path === EVENTS_PATH) eventsQuery = events.parse(query);
    } catch {
      app(req, res);
      return;
    }
    if (eventsQuery) {
      try {
        events.serve(req, res, user, eventsQuery, fail);
      } catch (err) {
        fail(err, req, res);
      }
      return;
    }
    let page;
    try {
      page = filteredPage(filtered, query, user);
    } catch {
      app(req, res);
      return;
    }
    try {
      sendPage(res, filtered.bus.store, page);
      filtered.bus.delivered(user, 'filtered-events', page.ids);
    } catch (err) {
      fail(err, req, res);
    }
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
